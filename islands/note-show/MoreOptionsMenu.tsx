import { Menu, MenuItem, MenuSeparator } from "../lib/ui/Menu";

export interface MenuEntry {
  label: string;
  onSelect: () => void;
  /** Destructive entries (Delete note) come last, set apart and in red. */
  danger?: boolean;
}

/** The toolbar's "more options" menu. */
export function MoreOptionsMenu({ entries }: { entries: MenuEntry[] }) {
  const safe = entries.filter((entry) => !entry.danger);
  const dangerous = entries.filter((entry) => entry.danger);
  return (
    <Menu label="more options" title="more options" triggerClassName="icon-button labelled" trigger="⋯">
      {safe.map((entry) => (
        <MenuItem key={entry.label} onSelect={entry.onSelect}>
          {entry.label}
        </MenuItem>
      ))}
      {dangerous.length > 0 && safe.length > 0 && <MenuSeparator />}
      {dangerous.map((entry) => (
        <MenuItem key={entry.label} onSelect={entry.onSelect} danger>
          {entry.label}
        </MenuItem>
      ))}
    </Menu>
  );
}
