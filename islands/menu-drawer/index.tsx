import { useEffect, useRef, useState } from "react";
import { icons } from "../lib/icons";

/** The ids the app shell gives its main menu and the part of it the drawer shows (views/shell/AppShell.tsx). */
const NAV_ID = "main-menu";
const ITEMS_ID = "main-menu-items";

/**
 * On phones the main menu is a drawer: this button opens it (a disclosure: aria-expanded), showing
 * every item with its label. Escape or a tap outside closes it and gives the focus back here.
 * Hidden on wider screens, where the menu is always open.
 */
export default function MenuDrawer() {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const nav = document.getElementById(NAV_ID);
    nav?.toggleAttribute("data-drawer-open", open);
    if (!open || !nav) return;
    document.getElementById(ITEMS_ID)?.querySelector<HTMLElement>("a, button")?.focus();
    const close = () => {
      setOpen(false);
      button.current?.focus();
    };
    const onKey = (event: KeyboardEvent) => event.key === "Escape" && close();
    // A tap outside the menu (and outside menus it opened, such as Account's) closes the drawer.
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Element;
      if (!nav.contains(target) && !target.closest("[role=menu]")) setOpen(false);
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onPointer);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onPointer);
    };
  }, [open]);

  return (
    <button
      ref={button}
      type="button"
      className="menu-item menu-drawer-toggle"
      aria-expanded={open}
      aria-controls={ITEMS_ID}
      onClick={() => setOpen((o) => !o)}
    >
      {open ? icons.close() : icons.menu()}
      <span>Menu</span>
    </button>
  );
}
