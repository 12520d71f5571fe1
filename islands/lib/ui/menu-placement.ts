/**
 * Where a menu opens. Radix flips a menu to the other side and slides it along its trigger when it
 * would leave the screen, but it never moves a menu that opens beside its trigger (left or right)
 * above or below it: on a phone the Account menu, opening to the right of a drawer entry as wide
 * as the screen, would start past the right edge. So a side with too little room for a menu falls
 * back to the other side, and then to above or below the trigger, whichever has more room.
 */

export type Side = "top" | "right" | "bottom" | "left";
export type Align = "start" | "center" | "end";

/** The room a menu needs beside its trigger: its minimum width (.menu in app.css) and a margin. */
export const MENU_ROOM_PX = 260;

interface Box {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

/** The side and alignment to ask Radix for, given the trigger's box and the screen's size (CSS pixels). */
export function fittingPlacement(
  trigger: Box,
  wanted: { side: Side; align: Align },
  screen: { width: number; height: number },
  room = MENU_ROOM_PX,
): { side: Side; align: Align } {
  if (wanted.side === "top" || wanted.side === "bottom") return wanted;
  const rightRoom = screen.width - trigger.right;
  const leftRoom = trigger.left;
  const [first, second] = wanted.side === "right" ? [rightRoom, leftRoom] : [leftRoom, rightRoom];
  if (first >= room) return wanted;
  if (second >= room) return { side: wanted.side === "right" ? "left" : "right", align: wanted.align };
  return { side: trigger.top > screen.height - trigger.bottom ? "top" : "bottom", align: "start" };
}
