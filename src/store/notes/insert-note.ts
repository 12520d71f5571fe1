/**
 * The one place a note row is written (notes, notebooks' head notes, links, Wikidata sub-notes,
 * imports, test hooks): placed in its notebook and among its siblings, created and updated at
 * `now`, in the caller's unit of work so the sibling order and the insert cannot interleave.
 */
import type { notes } from "../../db/schema";
import { all, one, type Session, type Step } from "../session";
import { type NoteRow, noteById } from "./note-rows";
import { lastChildOrders, orderAfter, orderForLastChild, SIBLING_ORDER_GAP } from "./sibling-order";

/** Where a new note goes: a notebook's head note, a parent's last child, or right after a sibling. */
export type NoteSlot =
  | { headOf: number }
  | { lastChildOf: Pick<NoteRow, "id" | "notebookId"> }
  | { after: Pick<NoteRow, "id" | "notebookId" | "parentId" | "siblingOrder"> };

/** The note's own columns; its place and timestamps come from the slot and `now`. */
export type NewNoteColumns = Omit<typeof notes.$inferInsert, "id" | "notebookId" | "parentId" | "siblingOrder" | "createdAt" | "updatedAt">;

export function* insertNote(s: Session, now: Date, slot: NoteSlot, columns: NewNoteColumns): Step<NoteRow> {
  const place =
    "headOf" in slot
      ? { notebookId: slot.headOf, parentId: null, siblingOrder: 0 }
      : "lastChildOf" in slot
        ? {
            notebookId: slot.lastChildOf.notebookId,
            parentId: slot.lastChildOf.id,
            siblingOrder: yield* orderForLastChild(s, slot.lastChildOf.id),
          }
        : { notebookId: slot.after.notebookId, parentId: slot.after.parentId, siblingOrder: yield* orderAfter(s, slot.after) };
  // The parent as it is now that its children are locked (sibling-order.ts): deleted or moved
  // meanwhile, the new note goes with it (undo of the deletion restores it too).
  const parent = place.parentId === null ? undefined : yield* noteById(s, place.parentId);
  const withParent = !parent
    ? {}
    : parent.deletedAt && !columns.deletedAt
      ? { notebookId: parent.notebookId, deletedAt: parent.deletedAt, deletionRootId: parent.deletionRootId }
      : { notebookId: parent.notebookId };
  const row = yield* one(
    s,
    s.db
      .insert(s.t.notes)
      .values({ ...columns, ...place, ...withParent, createdAt: now, updatedAt: now })
      .returning(),
  );
  return row!;
}

/** Rows per multi-row INSERT: fewer statements to prepare, while drizzle still builds each quickly (measured: 50 beat 200 and 20). */
const INSERT_BATCH = 50;

/**
 * Many new last children at once (vault and deck imports): each parent's new children follow its
 * existing ones, in the order given. One INSERT per batch of rows instead of one per note, since
 * preparing an insert (with the notes table's triggers) costs more than running it. Answers the
 * rows in the order given.
 */
export function* insertLastChildren(
  s: Session,
  now: Date,
  items: { parent: Pick<NoteRow, "id" | "notebookId">; columns: NewNoteColumns }[],
): Step<NoteRow[]> {
  const lastOrder = yield* lastChildOrders(s, [...new Set(items.map((item) => item.parent.id))]);
  const values = items.map(({ parent, columns }) => {
    const siblingOrder = (lastOrder.get(parent.id) ?? 0) + SIBLING_ORDER_GAP;
    lastOrder.set(parent.id, siblingOrder);
    return { ...columns, notebookId: parent.notebookId, parentId: parent.id, siblingOrder, createdAt: now, updatedAt: now };
  });
  const inserted: NoteRow[] = [];
  for (let i = 0; i < values.length; i += INSERT_BATCH) {
    // Ids grow in VALUES order; RETURNING's own order is not promised, so sort by id.
    const rows = yield* all(
      s,
      s.db
        .insert(s.t.notes)
        .values(values.slice(i, i + INSERT_BATCH))
        .returning(),
    );
    inserted.push(...rows.sort((a, b) => a.id - b.id));
  }
  return inserted;
}
