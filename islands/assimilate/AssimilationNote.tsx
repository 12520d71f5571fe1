import { useQuery } from "@tanstack/react-query";
import { type Ref, useMemo } from "react";
import { detailsBody } from "../../src/services/notes/note-properties";
import { ImageWithMask } from "../lib/accessory/ImageWithMask";
import { noteAccessoryQuery } from "../lib/accessory/queries";
import { useElementId } from "../lib/island-id";
import { renderNoteDetailsSafely } from "../lib/markdown";
import { useMath } from "../lib/math";
import { NoteTitle } from "../lib/note-title";
import { type NoteJson, notePath } from "../lib/notes-queries";
import { type RecallSettingField, RecallSettingsForm } from "../lib/recall-settings-form";

/** The note's title; a link note reads "subject — link type — object", each end linking to its note. */
function AssimilationNoteTitle({ note, headingRef }: { note: NoteJson; headingRef: Ref<HTMLHeadingElement> }) {
  const topology = note.noteTopology;
  return (
    <h2 className="assimilation-note-title" ref={headingRef} tabIndex={-1} dir="auto">
      {topology.linkType ? <NoteTitle topology={topology} linkEnds /> : <a href={notePath(note.id)}>{topology.titleOrPredicate}</a>}
    </h2>
  );
}

/** The note's image (with its mask) and URL, as the note page shows them. */
function NoteAccessory({ noteId }: { noteId: number }) {
  const { data: accessory } = useQuery(noteAccessoryQuery(noteId));
  if (!accessory) return null;
  return (
    <>
      {accessory.imageWithMask && <ImageWithMask src={accessory.imageWithMask.noteImage} mask={accessory.imageWithMask.imageMask} />}
      {accessory.url && (
        <p className="note-url">
          <a href={accessory.url} target="_blank" rel="noopener noreferrer">
            {accessory.url}
          </a>
        </p>
      )}
    </>
  );
}

/** The note being assimilated: title, details, image and links, and its recall settings. */
export function AssimilationNote({
  note,
  headingRef,
  onRecallSettingSaved,
}: {
  note: NoteJson;
  headingRef: Ref<HTMLHeadingElement>;
  onRecallSettingSaved: (field: RecallSettingField) => void;
}) {
  const settingsHeadingId = useElementId(`note-${note.id}-settings-heading`);
  const mathReady = useMath(note.details);
  // biome-ignore lint/correctness/useExhaustiveDependencies: rendered again once KaTeX is there
  const detailsHtml = useMemo(() => renderNoteDetailsSafely(note.details, { noteId: note.id }), [note.details, note.id, mathReady]);
  return (
    <article className="assimilation-note card" aria-label="note to assimilate">
      <AssimilationNoteTitle note={note} headingRef={headingRef} />
      {note.noteTopology.linkType && (
        <p className="muted assimilation-link-hint">A link between two notes: keep it to be asked how they relate.</p>
      )}
      <NoteAccessory noteId={note.id} />
      {detailsBody(note.details).trim() && (
        <div
          className="assimilation-note-details"
          dir="auto"
          // biome-ignore lint/security/noDangerouslySetInnerHtml: detailsHtml comes from renderNoteDetailsSafely (raw HTML escaped, unsafe URLs dropped, math typeset by KaTeX).
          dangerouslySetInnerHTML={{ __html: detailsHtml }}
        />
      )}
      <section className="assimilation-recall-settings" aria-labelledby={settingsHeadingId}>
        <h3 id={settingsHeadingId}>Note Recall Settings</h3>
        <RecallSettingsForm noteId={note.id} onSaved={onRecallSettingSaved} />
      </section>
    </article>
  );
}
