/**
 * A note's place among its siblings: sibling orders with gaps, so most placements write one row.
 * Placing is a read-then-write (the neighbours' orders, then the new one), made atomic by the unit
 * of work: on SQLite a write unit holds the write lock from its start; on PostgreSQL the parent's
 * row (the notebook's, among its head notes) is locked first, so two placements there take turns.
 */
import { and, asc, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import { all, lockRow, one, run, type Session, type Step } from "../session";

/** Gap between sibling orders, so most inserts between two siblings need no renumbering. */
export const SIBLING_ORDER_GAP = 1024;

/** Where siblings are: the children of a parent note, or a notebook's head notes (no parent). */
interface Siblings {
  parentId: number | null;
  notebookId: number;
}

function* lockChildrenOf(s: Session, parentId: number): Step<void> {
  yield* lockRow(s, s.t.notes, parentId);
}

function* lockSiblings(s: Session, siblings: Siblings): Step<void> {
  if (siblings.parentId !== null) yield* lockChildrenOf(s, siblings.parentId);
  else yield* lockRow(s, s.t.notebooks, siblings.notebookId);
}

function siblingCondition(s: Session, { parentId, notebookId }: Siblings) {
  const { notes } = s.t;
  return parentId === null ? and(eq(notes.notebookId, notebookId), isNull(notes.parentId)) : eq(notes.parentId, parentId);
}

/** The order for a new last child of the parent. */
export function* orderForLastChild(s: Session, parentId: number): Step<number> {
  const { notes } = s.t;
  yield* lockChildrenOf(s, parentId);
  const row = yield* one(
    s,
    s.db
      .select({ max: sql<number | null>`max(${notes.siblingOrder})` })
      .from(notes)
      .where(eq(notes.parentId, parentId)),
  );
  return (row?.max ?? 0) + SIBLING_ORDER_GAP;
}

/** The order for a new first child of the parent. */
export function* orderForFirstChild(s: Session, parentId: number): Step<number> {
  const { notes } = s.t;
  yield* lockChildrenOf(s, parentId);
  const row = yield* one(
    s,
    s.db
      .select({ min: sql<number | null>`min(${notes.siblingOrder})` })
      .from(notes)
      .where(eq(notes.parentId, parentId)),
  );
  return row?.min === null || row?.min === undefined ? SIBLING_ORDER_GAP : row.min - SIBLING_ORDER_GAP;
}

/**
 * The order for a note placed right after `reference` among its siblings: halfway to the next
 * sibling, renumbering the siblings (one UPDATE each) when there is no room left.
 */
export function* orderAfter(
  s: Session,
  reference: { id: number; parentId: number | null; notebookId: number; siblingOrder: number },
): Step<number> {
  const { notes } = s.t;
  yield* lockSiblings(s, reference);
  // The reference's order as it is now (the caller's copy may be older than the lock).
  const current = yield* one(s, s.db.select({ siblingOrder: notes.siblingOrder }).from(notes).where(eq(notes.id, reference.id)));
  const order = current?.siblingOrder ?? reference.siblingOrder;
  const next = yield* one(
    s,
    s.db
      .select({ siblingOrder: notes.siblingOrder })
      .from(notes)
      .where(and(siblingCondition(s, reference), gt(notes.siblingOrder, order)))
      .orderBy(asc(notes.siblingOrder))
      .limit(1),
  );
  if (!next) return order + SIBLING_ORDER_GAP;
  if (next.siblingOrder - order > 1) return Math.floor((order + next.siblingOrder) / 2);
  yield* renumberSiblings(s, reference);
  const renumbered = yield* one(s, s.db.select({ siblingOrder: notes.siblingOrder }).from(notes).where(eq(notes.id, reference.id)));
  return renumbered!.siblingOrder + SIBLING_ORDER_GAP / 2;
}

function* renumberSiblings(s: Session, of: Siblings): Step<void> {
  const { notes } = s.t;
  const siblings = yield* all(
    s,
    s.db.select({ id: notes.id }).from(notes).where(siblingCondition(s, of)).orderBy(asc(notes.siblingOrder), asc(notes.id)),
  );
  for (const [index, sibling] of siblings.entries()) {
    yield* run(
      s,
      s.db
        .update(notes)
        .set({ siblingOrder: (index + 1) * SIBLING_ORDER_GAP })
        .where(eq(notes.id, sibling.id)),
    );
  }
}

/** The highest sibling order under each of the parents (those with children), for placing many last children at once. */
export function* lastChildOrders(s: Session, parentIds: number[]): Step<Map<number, number>> {
  const { notes } = s.t;
  const orders = new Map<number, number>();
  for (let i = 0; i < parentIds.length; i += 500) {
    const chunk = parentIds.slice(i, i + 500);
    for (const parentId of chunk) yield* lockChildrenOf(s, parentId);
    const rows = yield* all(
      s,
      s.db
        .select({ parentId: notes.parentId, max: sql<number | null>`max(${notes.siblingOrder})` })
        .from(notes)
        .where(inArray(notes.parentId, chunk))
        .groupBy(notes.parentId),
    );
    for (const row of rows) if (row.parentId !== null) orders.set(row.parentId, row.max ?? 0);
  }
  return orders;
}
