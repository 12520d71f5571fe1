import { useCallback, useRef, useState } from "react";
import { useDismiss } from "../lib/use-dismiss";
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
  const closeMenu = useCallback(() => setOpen(false), []);
  useDismiss(open, closeMenu, ref);
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
