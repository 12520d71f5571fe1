import type { DbHandle } from "../../db/connection";
import { notes } from "../../db/schema";
import type { NoteRow } from "./rows";
import { lastChildOrders, orderAfter, orderForLastChild, SIBLING_ORDER_GAP } from "./sibling-order";

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
        ? {
            notebookId: slot.lastChildOf.notebookId,
            parentId: slot.lastChildOf.id,
            siblingOrder: orderForLastChild(tx, slot.lastChildOf.id),
          }
        : { notebookId: slot.after.notebookId, parentId: slot.after.parentId, siblingOrder: orderAfter(tx, slot.after) };
  return tx
    .insert(notes)
    .values({ ...columns, ...place, createdAt: now, updatedAt: now })
    .returning()
    .get();
}

/** Rows per multi-row INSERT: fewer statements to prepare, while drizzle still builds each quickly (measured: 50 beat 200 and 20). */
const INSERT_BATCH = 50;

/**
 * Many new last children at once (vault and deck imports): each parent's new children follow its
 * existing ones, in the order given. One INSERT per batch of rows instead of one per note, since
 * preparing an insert (with the notes table's triggers) costs more than running it. Answers the
 * rows in the order given. Call it with the caller's transaction, like insertNote.
 */
export function insertLastChildren(
  tx: DbHandle,
  now: Date,
  items: { parent: Pick<NoteRow, "id" | "notebookId">; columns: NewNoteColumns }[],
): NoteRow[] {
  const lastOrder = lastChildOrders(tx, [...new Set(items.map((item) => item.parent.id))]);
  const values = items.map(({ parent, columns }) => {
    const siblingOrder = (lastOrder.get(parent.id) ?? 0) + SIBLING_ORDER_GAP;
    lastOrder.set(parent.id, siblingOrder);
    return { ...columns, notebookId: parent.notebookId, parentId: parent.id, siblingOrder, createdAt: now, updatedAt: now };
  });
  const inserted: NoteRow[] = [];
  for (let i = 0; i < values.length; i += INSERT_BATCH) {
    // Ids grow in VALUES order; RETURNING's own order is not promised, so sort by id.
    inserted.push(
      ...tx
        .insert(notes)
        .values(values.slice(i, i + INSERT_BATCH))
        .returning()
        .all()
        .sort((a, b) => a.id - b.id),
    );
  }
  return inserted;
}
