/**
 * The notes store's insert bodies (src/store/notes/insert-note.ts) run on a caller's own drizzle
 * transaction: only for the import tasks not on the stores yet (src/operations), which write a
 * batch of notes inside their transaction. Everything else inserts through ctx.stores.notes.
 */
import { runOnSqlite } from "../../store/legacy";
import * as insert from "../../store/notes/insert-note";
import type { NoteRow } from "../../store/notes/note-rows";

export type { NewNoteColumns, NoteSlot } from "../../store/notes/insert-note";

type Handle = Parameters<typeof runOnSqlite>[0];

/** A note at the slot, in the caller's transaction. */
export const insertNote = (tx: Handle, now: Date, slot: insert.NoteSlot, columns: insert.NewNoteColumns): NoteRow =>
  runOnSqlite(tx, (s) => insert.insertNote(s, now, slot, columns));

/** Many new last children at once, in the caller's transaction; the rows in the order given. */
export const insertLastChildren = (
  tx: Handle,
  now: Date,
  items: { parent: Pick<NoteRow, "id" | "notebookId">; columns: insert.NewNoteColumns }[],
): NoteRow[] => runOnSqlite(tx, (s) => insert.insertLastChildren(s, now, items));
