/**
 * Loading notes and notebooks for services. The async helpers (`requireNote`, `requireNotebook`...)
 * go through the notes store like any other call. The synchronous ones below them run the same
 * store bodies at once (`ctx.database.readNow`): they are the bridge for the graph's lazy
 * neighbourhood (graph/neighbourhood.ts, build-graph.ts), its last caller not async yet, and go
 * when it awaits the store instead.
 */
import type { AppContext } from "../../context";
import * as rows from "../../store/notes/note-rows";
import type { ChildrenCursor, NotebookRow, NoteRow } from "../../store/notes/notes-store";
import { NotFoundError } from "../errors";

export type { ChildrenCursor, NotebookRow, NoteRow };

/** The note, or 404. */
export async function requireNote(ctx: AppContext, noteId: number): Promise<NoteRow> {
  const note = await ctx.stores.notes.noteById(noteId);
  if (!note) throw new NotFoundError("Note");
  return note;
}

/** The notebook, or 404. */
export async function requireNotebook(ctx: AppContext, notebookId: number): Promise<NotebookRow> {
  const notebook = await ctx.stores.notes.notebookById(notebookId);
  if (!notebook) throw new NotFoundError("Notebook");
  return notebook;
}

/** The note and its notebook (one snapshot), or 404. */
export async function requireNoteWithNotebook(ctx: AppContext, noteId: number): Promise<{ note: NoteRow; notebook: NotebookRow }> {
  const found = await ctx.stores.notes.noteWithNotebook(noteId);
  if (!found) throw new NotFoundError("Note");
  return found;
}

// The synchronous bridge (see above): nothing new should call these.

export function findNote(ctx: AppContext, noteId: number): NoteRow | undefined {
  return ctx.database.readNow((s) => rows.noteById(s, noteId));
}

export function getNote(ctx: AppContext, noteId: number): NoteRow {
  const note = findNote(ctx, noteId);
  if (!note) throw new NotFoundError("Note");
  return note;
}

export function getNotebook(ctx: AppContext, notebookId: number): NotebookRow {
  const notebook = ctx.database.readNow((s) => rows.notebookById(s, notebookId));
  if (!notebook) throw new NotFoundError("Notebook");
  return notebook;
}

/** The children of a note that are not deleted, in sibling order. */
export function childrenOf(ctx: AppContext, noteId: number): NoteRow[] {
  return ctx.database.readNow((s) => rows.childrenOf(s, noteId));
}

/** The ancestors of a note, root first (not including the note). */
export function ancestorsOf(ctx: AppContext, note: NoteRow): NoteRow[] {
  return ctx.database.readNow((s) => rows.ancestorsOf(s, note));
}

/** Undeleted link notes whose target is this note, of the notebooks `readable` accepts. */
export function inboundReferencesOf(ctx: AppContext, readable: { notebook(notebookId: number): boolean }, noteId: number): NoteRow[] {
  return ctx.database.readNow((s) => rows.inboundReferencesOf(s, noteId, (id) => readable.notebook(id)));
}
