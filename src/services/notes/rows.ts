/** Loading notes and notebooks for services, through the notes store, 404 when missing. */
import type { AppContext } from "../../context";
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
