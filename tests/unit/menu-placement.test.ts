import { describe, expect, test } from "bun:test";
import { fittingPlacement } from "../../islands/lib/ui/menu-placement";

const phone = { width: 390, height: 844 };
const desktop = { width: 1280, height: 800 };

describe("where a menu opens", () => {
  test("beside its trigger when the screen has room there", () => {
    const accountInSidebar = { top: 750, bottom: 792, left: 8, right: 192 };
    expect(fittingPlacement(accountInSidebar, { side: "right", align: "end" }, desktop)).toEqual({ side: "right", align: "end" });
  });

  test("on the other side when only that side has room", () => {
    const nearRightEdge = { top: 100, bottom: 140, left: 1100, right: 1140 };
    expect(fittingPlacement(nearRightEdge, { side: "right", align: "end" }, desktop)).toEqual({ side: "left", align: "end" });
  });

  test("above a trigger as wide as a phone's drawer, near the bottom of the screen", () => {
    const accountInDrawer = { top: 794, bottom: 836, left: 8, right: 292 };
    expect(fittingPlacement(accountInDrawer, { side: "right", align: "end" }, phone)).toEqual({ side: "top", align: "start" });
  });

  test("below such a trigger near the top of the screen", () => {
    const high = { top: 60, bottom: 100, left: 8, right: 292 };
    expect(fittingPlacement(high, { side: "left", align: "center" }, phone)).toEqual({ side: "bottom", align: "start" });
  });

  test("menus opening above or below are Radix's to keep on screen", () => {
    const moreOptions = { top: 200, bottom: 244, left: 330, right: 374 };
    expect(fittingPlacement(moreOptions, { side: "bottom", align: "end" }, phone)).toEqual({ side: "bottom", align: "end" });
  });
});
