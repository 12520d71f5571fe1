import { noteTitleText } from "../../islands/lib/note-title";
import type { NoteRealmJson } from "../../src/services/notes/presenters";
import { Island } from "../Island";

/** The id of the notebooks page's list of subscribed notebooks (islands/notebooks). */
export const SUBSCRIBED_NOTEBOOKS_ANCHOR = "subscribed-notebooks";

/**
 * /n{noteId}: the breadcrumbs header, the note-tree sidebar and the note itself. The sidebar
 * and the note are islands; the breadcrumbs are plain links, starting where the notebook is found:
 * the bazaar, the reader's subscribed notebooks, its circle, or the reader's own notebooks.
 */
export function NotePage({
  realm,
  ancestors,
  rootNoteId,
  readonly,
  subscribed = false,
  detailsHtml,
  mathStylesheet,
}: {
  realm: NoteRealmJson;
  ancestors: { id: number; title: string }[];
  rootNoteId: number;
  readonly: boolean;
  /** The reader subscribed to the notebook (it is not theirs): the breadcrumbs start there. */
  subscribed?: boolean;
  detailsHtml: string;
  /** KaTeX's stylesheet, when the details hold typeset math (only then: most notes have none). */
  mathStylesheet?: string;
}) {
  // A link note among the ancestors reads as its sentence; the realm's topology chain has its ends.
  const names = new Map<number, string>();
  for (let t = realm.note.noteTopology.parentOrSubjectNoteTopology; t; t = t.parentOrSubjectNoteTopology) names.set(t.id, noteTitleText(t));
  return (
    <div className="note-page">
      {mathStylesheet && <link rel="stylesheet" href={mathStylesheet} data-math-stylesheet="" />}
      <Island name="note-tree" props={{ rootNoteId, focusNoteId: realm.id, ancestorIds: ancestors.map((a) => a.id), readonly }} />
      <div className="note-main">
        <nav className="breadcrumbs" aria-label="Breadcrumb">
          <ol>
            <li>
              {realm.fromBazaar ? (
                <a href="/d/bazaar">Bazaar</a>
              ) : subscribed ? (
                <a href={`/d/notebooks#${SUBSCRIBED_NOTEBOOKS_ANCHOR}`}>Subscribed Notebooks</a>
              ) : realm.notebook?.circle ? (
                <a href={`/d/circles/${realm.notebook.circle.id}`} dir="auto">
                  {realm.notebook.circle.name}
                </a>
              ) : (
                <a href="/d/notebooks">My Notebooks</a>
              )}
            </li>
            {ancestors.map((ancestor) => (
              <li key={ancestor.id}>
                <a href={`/n${ancestor.id}`} dir="auto">
                  {names.get(ancestor.id) ?? ancestor.title}
                </a>
              </li>
            ))}
          </ol>
        </nav>
        <Island name="note-show" props={{ noteId: realm.id, readonly, initialDetailsHtml: detailsHtml }} />
      </div>
    </div>
  );
}
