import type { DbHandle } from "../../db/connection";
import { notes } from "../../db/schema";
import type { NoteRow } from "./rows";
import { orderAfter, orderForLastChild } from "./sibling-order";

/** Where a new note goes: a notebook's head note, a parent's last child, or right after a sibling. */
export type NoteSlot =
  | { headOf: number }
  | { lastChildOf: Pick<NoteRow, "id" | "notebookId"> }
  | { after: Pick<NoteRow, "id" | "notebookId" | "parentId" | "siblingOrder"> };

/** The note's own columns; its place and timestamps come from the slot and `now`. */
export type NewNoteColumns = Omit<typeof notes.$inferInsert, "id" | "notebookId" | "parentId" | "siblingOrder" | "createdAt" | "updatedAt">;

/**
 * The one place a note row is written (notes, notebooks' head notes, links, Wikidata sub-notes,
 * test hooks): placed in its notebook and among its siblings, created and updated at `now`.
 * Call it with the caller's transaction, so the sibling order and the insert cannot interleave.
 */
export function insertNote(tx: DbHandle, now: Date, slot: NoteSlot, columns: NewNoteColumns): NoteRow {
  const place =
    "headOf" in slot
      ? { notebookId: slot.headOf, parentId: null, siblingOrder: 0 }
      : "lastChildOf" in slot
        ? { notebookId: slot.lastChildOf.notebookId, parentId: slot.lastChildOf.id, siblingOrder: orderForLastChild(tx, slot.lastChildOf.id) }
        : { notebookId: slot.after.notebookId, parentId: slot.after.parentId, siblingOrder: orderAfter(tx, slot.after) };
  return tx.insert(notes).values({ ...columns, ...place, createdAt: now, updatedAt: now }).returning().get();
}
