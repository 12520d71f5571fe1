/**
 * A bridge for the SQLite-only code not on the stores yet (the allow-list of
 * tests/unit/store-boundary.test.ts): it runs a store body synchronously on the drizzle handle it
 * is given, inside the transaction that handle belongs to. It goes when the last such caller
 * moves onto a store; nothing new may use it.
 */
import * as schema from "../db/schema";
import { runSync } from "./runner";
import type { Session, Step, StoreDb } from "./session";

/** Any drizzle SQLite handle of the app's connection: the database or one of its transactions. */
type SqliteHandle = Pick<StoreDb, "select" | "insert" | "update" | "delete">;

export function runOnSqlite<T>(handle: SqliteHandle, body: (s: Session) => Step<T>): T {
  return runSync(body({ db: handle as StoreDb, t: schema, dialect: "sqlite", memos: new Map() }));
}
