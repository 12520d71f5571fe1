import { useQuery } from "@tanstack/react-query";
import { type Ref, useMemo } from "react";
import { useElementId } from "../lib/island-id";
import { type NoteJson, type NoteTopologyJson, notePath } from "../lib/notes-queries";
import { RecallSettingsForm, type RecallSettingField } from "../lib/recall-settings-form";
import { ImageWithMask } from "../lib/accessory/ImageWithMask";
import { noteAccessoryQuery } from "../lib/accessory/queries";
import { renderMarkdownSafely } from "../lib/markdown";

function TopologyLink({ topology }: { topology: NoteTopologyJson }) {
  return <a href={notePath(topology.id)}>{topology.titleOrPredicate}</a>;
}

/** The note's title; a link note reads "subject link-type object", each end linking to its note. */
function NoteTitle({ note, headingRef }: { note: NoteJson; headingRef: Ref<HTMLHeadingElement> }) {
  const topology = note.noteTopology;
  const subject = topology.parentOrSubjectNoteTopology;
  const object = topology.objectNoteTopology;
  return (
    <h2 className="assimilation-note-title" ref={headingRef} tabIndex={-1}>
      {topology.linkType && subject && object ? (
        <>
          <TopologyLink topology={subject} /> <span className="link-type">{topology.linkType}</span> <TopologyLink topology={object} />
        </>
      ) : (
        <a href={notePath(note.id)}>{topology.titleOrPredicate}</a>
      )}
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
          <a href={accessory.url} target="_blank" rel="noopener noreferrer">{accessory.url}</a>
        </p>
      )}
    </>
  );
}

/** The note being assimilated: title, details, image and links, and its recall settings. */
export function AssimilationNote({ note, headingRef, onRecallSettingSaved }: {
  note: NoteJson;
  headingRef: Ref<HTMLHeadingElement>;
  onRecallSettingSaved: (field: RecallSettingField) => void;
}) {
  const settingsHeadingId = useElementId(`note-${note.id}-settings-heading`);
  const detailsHtml = useMemo(() => renderMarkdownSafely(note.details), [note.details]);
  return (
    <article className="assimilation-note card" aria-label="note to assimilate">
      <NoteTitle note={note} headingRef={headingRef} />
      <NoteAccessory noteId={note.id} />
      {note.details.trim() && <div className="assimilation-note-details" dangerouslySetInnerHTML={{ __html: detailsHtml }} />}
      <section className="assimilation-recall-settings" aria-labelledby={settingsHeadingId}>
        <h3 id={settingsHeadingId}>Note Recall Settings</h3>
        <RecallSettingsForm noteId={note.id} onSaved={onRecallSettingSaved} />
      </section>
    </article>
  );
}
