/**
 * Sibling order for the notes code not on the stores yet: the bodies of src/store/notes/sibling-order.ts
 * run on the caller's transaction. That transaction takes the write lock at its start (drizzle's
 * transactions are IMMEDIATE, src/db/connection.ts), so the order read and the write that uses it
 * see no other process's write in between.
 */
import type { DbHandle } from "../../db/connection";
import { runOnSqlite } from "../../store/legacy";
import * as order from "../../store/notes/sibling-order";

export { SIBLING_ORDER_GAP } from "../../store/notes/sibling-order";

/** The order for a new last child of the parent. */
export const orderForLastChild = (tx: DbHandle, parentId: number) => runOnSqlite(tx, (s) => order.orderForLastChild(s, parentId));

/** The order for a new first child of the parent. */
export const orderForFirstChild = (tx: DbHandle, parentId: number) => runOnSqlite(tx, (s) => order.orderForFirstChild(s, parentId));

/** The order for a note placed right after `reference` among its siblings (renumbering them when there is no room). */
export const orderAfter = (tx: DbHandle, reference: { id: number; parentId: number | null; siblingOrder: number }) =>
  runOnSqlite(tx, (s) => order.orderAfter(s, reference));

/** The highest sibling order under each of the parents that have children. */
export const lastChildOrders = (tx: DbHandle, parentIds: number[]) => runOnSqlite(tx, (s) => order.lastChildOrders(s, parentIds));
