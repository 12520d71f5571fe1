import { type FrontMatterEntry, scalarValue, splitDetails } from "../../../src/services/vaults/markdown-file";
import { useElementId } from "../island-id";

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
 * The front matter at the top of a note's details (kept from an Obsidian or Anki import, written
 * back on export) as a small properties table; nothing when the details have none.
 */
export function NoteProperties({ details }: { details: string }) {
  const headingId = useElementId("note-properties-heading");
  const { entries } = splitDetails(details);
  const shown = entries.filter((entry) => entry.key !== "");
  if (shown.length === 0) return null;
  return (
    <section className="note-properties" aria-labelledby={headingId}>
      <h2 id={headingId} className="note-properties-heading">
        Properties
      </h2>
      <table>
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
