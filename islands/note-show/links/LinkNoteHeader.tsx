import { useState } from "react";
import { lazyComponent } from "../../lib/lazy";
import { NoteTitle } from "../../lib/note-title";
import type { NoteJson } from "../../lib/notes-queries";

/** "Change link type": loaded when opened. */
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
