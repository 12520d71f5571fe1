/** Notes found by their title (MCP names a parent by its title). */
import { byDialect, type Session, type Step } from "../session";
import { type NotebookRow, type NoteRow, notebookById, notesByIds } from "./note-rows";
import * as onPostgres from "./notes-postgres";
import * as onSqlite from "./notes-sqlite";

/**
 * The undeleted, non-link notes of these notebooks titled `title` (case-insensitive, spaces around
 * ignored), by id, at most 100; with each one's notebook and that notebook's head note title.
 */
export function* notesTitled(
  s: Session,
  notebookIds: number[],
  title: string,
): Step<{ note: NoteRow; notebook: NotebookRow; notebookTitle: string | undefined }[]> {
  if (notebookIds.length === 0) return [];
  const ids = yield* byDialect(s, {
    sqlite: () => onSqlite.idsOfNotesTitled(s, notebookIds, title),
    postgres: () => onPostgres.idsOfNotesTitled(s, notebookIds, title),
  });
  const found: { note: NoteRow; notebook: NotebookRow; notebookTitle: string | undefined }[] = [];
  const notebooks = new Map<number, { notebook: NotebookRow | undefined; title: string | undefined }>();
  for (const note of yield* notesByIds(s, ids)) {
    if (!notebooks.has(note.notebookId)) {
      const notebook = yield* notebookById(s, note.notebookId);
      const head = notebook?.headNoteId ? (yield* notesByIds(s, [notebook.headNoteId]))[0] : undefined;
      notebooks.set(note.notebookId, { notebook, title: head?.title });
    }
    const { notebook, title: notebookTitle } = notebooks.get(note.notebookId)!;
    if (notebook) found.push({ note, notebook, notebookTitle });
  }
  return found;
}
