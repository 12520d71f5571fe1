import { useEffect, useState } from "react";
import { detailsParts } from "../../../src/services/notes/note-properties";
import { type FrontMatterEntry, scalarValue } from "../../../src/services/vaults/markdown-file";
import { useElementId } from "../island-id";

const COLLAPSED_KEY = "engram.properties-collapsed";

/** A front matter value as one line: a scalar as is, a list (`- a` lines or `[a, b]`) joined by commas. */
function valueText(entry: FrontMatterEntry): string {
  const scalar = scalarValue(entry);
  if (scalar !== undefined)
    return scalar
      .replace(/^\[(.*)\]$/, "$1")
      .split(",")
      .map((part) => part.trim().replace(/^["']|["']$/g, ""))
      .join(", ");
  return entry.lines
    .slice(1)
    .map((line) =>
      line
        .trim()
        .replace(/^-\s*/, "")
        .replace(/^["']|["']$/g, ""),
    )
    .filter(Boolean)
    .join(", ");
}

/**
 * The properties of a note (the front matter at the top of its details, kept from an Obsidian or
 * Anki import and written back on export) as a small table that folds away, as Obsidian shows
 * them; nothing when the details have none. Folded or not is remembered in this browser.
 */
export function NoteProperties({ details }: { details: string }) {
  const headingId = useElementId("note-properties-heading");
  const tableId = useElementId("note-properties-table");
  const [collapsed, setCollapsed] = useState(false);
  useEffect(() => {
    setCollapsed(localStorage.getItem(COLLAPSED_KEY) === "true");
  }, []);
  const shown = detailsParts(details).properties.filter((entry) => entry.key !== "");
  if (shown.length === 0) return null;
  const toggle = () => {
    localStorage.setItem(COLLAPSED_KEY, String(!collapsed));
    setCollapsed(!collapsed);
  };
  return (
    <section className="note-properties" aria-labelledby={headingId}>
      <h2 id={headingId} className="note-properties-heading">
        <button type="button" className="note-properties-toggle" aria-expanded={!collapsed} aria-controls={tableId} onClick={toggle}>
          <span aria-hidden="true">{collapsed ? "▸" : "▾"}</span> Properties
        </button>
      </h2>
      <table id={tableId} hidden={collapsed}>
        <tbody>
          {shown.map((entry, i) => (
            <tr
              // biome-ignore lint/suspicious/noArrayIndexKey: a key may repeat in the details; the table is rebuilt from them whole.
              key={i}
            >
              <th scope="row" dir="auto">
                {entry.key}
              </th>
              <td dir="auto">{valueText(entry)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
