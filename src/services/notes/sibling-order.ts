import { and, asc, eq, gt, isNull, sql } from "drizzle-orm";
import type { AppContext } from "../../context";
import { notes } from "../../db/schema";

/** Gap between sibling orders, so most inserts between two siblings need no renumbering. */
export const SIBLING_ORDER_GAP = 1024;

type Tx = Pick<AppContext["db"], "select" | "update">;

function parentCondition(parentId: number | null) {
  return parentId === null ? isNull(notes.parentId) : eq(notes.parentId, parentId);
}

/** The order for a new last child of the parent. */
export function orderForLastChild(tx: Tx, parentId: number): number {
  const row = tx
    .select({ max: sql<number | null>`max(${notes.siblingOrder})` })
    .from(notes)
    .where(eq(notes.parentId, parentId))
    .get();
  return (row?.max ?? 0) + SIBLING_ORDER_GAP;
}

/** The order for a new first child of the parent. */
export function orderForFirstChild(tx: Tx, parentId: number): number {
  const row = tx
    .select({ min: sql<number | null>`min(${notes.siblingOrder})` })
    .from(notes)
    .where(eq(notes.parentId, parentId))
    .get();
  return row?.min === null || row?.min === undefined ? SIBLING_ORDER_GAP : row.min - SIBLING_ORDER_GAP;
}

/**
 * The order for a note placed right after `reference` among its siblings: halfway to the next
 * sibling, renumbering the siblings (in one UPDATE each) when there is no room left.
 */
export function orderAfter(tx: Tx, reference: { id: number; parentId: number | null; siblingOrder: number }): number {
  const next = tx
    .select({ siblingOrder: notes.siblingOrder })
    .from(notes)
    .where(and(parentCondition(reference.parentId), gt(notes.siblingOrder, reference.siblingOrder)))
    .orderBy(asc(notes.siblingOrder))
    .limit(1)
    .get();
  if (!next) return reference.siblingOrder + SIBLING_ORDER_GAP;
  if (next.siblingOrder - reference.siblingOrder > 1) {
    return Math.floor((reference.siblingOrder + next.siblingOrder) / 2);
  }
  renumberSiblings(tx, reference.parentId);
  const renumbered = tx.select({ siblingOrder: notes.siblingOrder }).from(notes).where(eq(notes.id, reference.id)).get()!;
  return renumbered.siblingOrder + SIBLING_ORDER_GAP / 2;
}

function renumberSiblings(tx: Tx, parentId: number | null) {
  const siblings = tx
    .select({ id: notes.id })
    .from(notes)
    .where(parentCondition(parentId))
    .orderBy(asc(notes.siblingOrder), asc(notes.id))
    .all();
  siblings.forEach((sibling, index) => {
    tx.update(notes)
      .set({ siblingOrder: (index + 1) * SIBLING_ORDER_GAP })
      .where(eq(notes.id, sibling.id))
      .run();
  });
}
