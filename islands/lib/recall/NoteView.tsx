import { useQuery } from "@tanstack/react-query";
import { detailsBody } from "../../../src/services/notes/note-properties";
import { renderNoteDetailsSafely } from "../markdown";
import { useMath } from "../math";
import { NoteTitle, noteTitleText } from "../note-title";
import { type NoteJson, type NoteTopologyJson, notePath, noteRealmQuery } from "../notes-queries";

/** The ancestors of a note, root first, from its topology chain (filled when the realm is loaded). */
function ancestorsOf(topology: NoteTopologyJson): NoteTopologyJson[] {
  const chain: NoteTopologyJson[] = [];
  for (let t = topology.parentOrSubjectNoteTopology; t; t = t.parentOrSubjectNoteTopology) chain.unshift(t);
  return chain;
}

/**
 * A note read-only, as recall shows it: breadcrumb, title and details. The note page's realm
 * (GET /api/notes/{id}) brings the ancestors; until it arrives, or if it cannot be read, the
 * note given by the caller is shown. `detailsHidden` shows only where it is and its title (the
 * front of a self-review's card).
 */
export function NoteView({
  noteId,
  note: given,
  heading,
  detailsHidden = false,
}: {
  noteId: number;
  note?: NoteJson;
  heading?: string;
  detailsHidden?: boolean;
}) {
  const { data: realm, isPending } = useQuery(noteRealmQuery(noteId));
  const note = realm?.note ?? given;
  useMath(note?.details ?? "");
  if (!note) return isPending ? <p className="muted">Loading...</p> : null;
  // A link note reads as its sentence, "Moon — a part of — Sun", not as its bare link type.
  const title = noteTitleText(note.noteTopology);
  const ancestors = ancestorsOf(note.noteTopology);
  return (
    <section className="recall-note" aria-label={heading ?? title}>
      {heading && <h2 className="recall-note-heading">{heading}</h2>}
      {ancestors.length > 0 && (
        <nav className="breadcrumbs" aria-label="Breadcrumb">
          <ol>
            {ancestors.map((ancestor) => (
              <li key={ancestor.id}>
                <a href={notePath(ancestor.id)} dir="auto">
                  {noteTitleText(ancestor)}
                </a>
              </li>
            ))}
          </ol>
        </nav>
      )}
      <h3 className="recall-note-title" dir="auto">
        <a href={notePath(note.id)}>
          <NoteTitle topology={note.noteTopology} />
        </a>
      </h3>
      {!detailsHidden && detailsBody(note.details).trim() !== "" && (
        <div
          className="note-details markdown"
          dir="auto"
          // biome-ignore lint/security/noDangerouslySetInnerHtml: renderNoteDetailsSafely escapes raw HTML, drops unsafe URLs and typesets math with KaTeX.
          dangerouslySetInnerHTML={{ __html: renderNoteDetailsSafely(note.details, { noteId: note.id }) }}
        />
      )}
    </section>
  );
}
