import { type NoteTopologyJson, notePath } from "./notes-queries";

/** How a note the reader may not read is named (the server sends no title for it). */
export const UNREADABLE_NOTE_TEXT = "a note you cannot read";

/** What stands between a link note's subject, link type and object, in text and on screen. */
const LINK_SEPARATOR = " — ";

/**
 * How a note is named wherever it is listed or asked: its title, or for a link note the
 * sentence "subject — link type — object" (its own title is only the link type, which says
 * nothing alone). An end the server did not send is left out.
 */
export function noteTitleText(topology: NoteTopologyJson): string {
  if (topology.unreadable) return UNREADABLE_NOTE_TEXT;
  if (!topology.linkType) return topology.titleOrPredicate;
  return [topology.parentOrSubjectNoteTopology?.titleOrPredicate, topology.linkType, topology.objectNoteTopology?.titleOrPredicate]
    .filter((part): part is string => part !== undefined)
    .join(LINK_SEPARATOR);
}

function End({ topology, linkEnds }: { topology?: NoteTopologyJson; linkEnds: boolean }) {
  if (!topology) return null;
  // Each end isolated (dir="auto", <bdi>): a Hebrew or Arabic title does not reorder the sentence around it.
  return linkEnds ? (
    <a href={notePath(topology.id)} dir="auto">
      {topology.titleOrPredicate}
    </a>
  ) : (
    <bdi>{topology.titleOrPredicate}</bdi>
  );
}

/**
 * The same name as markup: the link type set apart for styling, and with `linkEnds` the subject
 * and object as links to their notes. Its text is exactly noteTitleText's.
 */
export function NoteTitle({ topology, linkEnds = false }: { topology: NoteTopologyJson; linkEnds?: boolean }) {
  if (topology.unreadable) return <span className="muted">{UNREADABLE_NOTE_TEXT}</span>;
  if (!topology.linkType) return <>{topology.titleOrPredicate}</>;
  const subject = topology.parentOrSubjectNoteTopology;
  const object = topology.objectNoteTopology;
  return (
    <>
      <End topology={subject} linkEnds={linkEnds} />
      {subject && LINK_SEPARATOR}
      <span className="link-type">{topology.linkType}</span>
      {object && LINK_SEPARATOR}
      <End topology={object} linkEnds={linkEnds} />
    </>
  );
}
