import { useEffect, useRef, useState } from "react";
import { useElementId } from "../lib/island-id";

export interface MenuEntry {
  label: string;
  onSelect: () => void;
}

/** The toolbar's "more options" dropdown. */
export function MoreOptionsMenu({ entries }: { entries: MenuEntry[] }) {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const menuId = useElementId("more-options");
  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent) => !ref.current?.contains(event.target as Node) && setOpen(false);
    const onKey = (event: KeyboardEvent) => event.key === "Escape" && setOpen(false);
    document.addEventListener("mousedown", close);
    document.addEventListener("keydown", onKey);
    ref.current?.querySelector<HTMLElement>("[role=menuitem]")?.focus();
    return () => {
      document.removeEventListener("mousedown", close);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);
  return (
    <div className="toolbar-menu" ref={ref}>
      <button type="button" className="icon-button labelled" title="more options" aria-label="more options" aria-haspopup="menu"
        aria-expanded={open} aria-controls={menuId} onClick={() => setOpen((o) => !o)}>
        ⋯
      </button>
      {open && (
        <div className="dropdown toolbar-dropdown" role="menu" id={menuId} aria-label="more options">
          {entries.map((entry) => (
            <button key={entry.label} type="button" role="menuitem" onClick={() => { setOpen(false); entry.onSelect(); }}>
              {entry.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
