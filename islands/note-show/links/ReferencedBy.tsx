import { reversedLabel } from "../../../src/services/links/link-types";
import { type NoteJson, notePath } from "../../lib/notes-queries";

/** "Referenced by": the links that point at this note, read backwards ("a generalization of Dog"). */
export function ReferencedBy({ notes }: { notes: NoteJson[] }) {
  if (notes.length === 0) return null;
  return (
    <section className="referenced-by" aria-labelledby="referenced-by-heading">
      <h2 id="referenced-by-heading">Referenced by</h2>
      <ul>
        {notes.map((link) => {
          const subject = link.noteTopology.parentOrSubjectNoteTopology;
          return (
            <li key={link.id}>
              <a href={notePath(link.id)} className="reversed-label">
                {reversedLabel(link.noteTopology.linkType ?? "")}
              </a>{" "}
              {subject ? <a href={notePath(subject.id)}>{subject.titleOrPredicate}</a> : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
