import { useState } from "react";
import { reversedLabel } from "../../../src/services/links/link-types";
import { lazyComponent } from "../../lib/lazy";
import { NoteTitle } from "../../lib/note-title";
import { type NoteJson, notePath } from "../../lib/notes-queries";

/** "search and link note" and "Change link type": loaded when opened. */
export const LinkFlow = lazyComponent(() => import("./LinkFlow").then((m) => m.LinkFlow));
const ChangeLinkTypeDialog = lazyComponent(() => import("./ChangeLinkTypeDialog").then((m) => m.ChangeLinkTypeDialog));

/** On a link note's page: subject, the link type (changeable) and the object. */
export function LinkNoteHeader({ note, editable }: { note: NoteJson; editable: boolean }) {
  const [changing, setChanging] = useState(false);
  return (
    <div className="link-note-header">
      <h1 className="note-title link-note-title" dir="auto">
        <NoteTitle topology={note.noteTopology} linkEnds />
      </h1>
      {editable && (
        <button type="button" className="button small" onClick={() => setChanging(true)}>
          Change link type
        </button>
      )}
      {changing && <ChangeLinkTypeDialog note={note} onClose={() => setChanging(false)} />}
    </div>
  );
}

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
