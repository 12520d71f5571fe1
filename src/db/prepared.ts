import type { Db } from "./connection";

const statements = new WeakMap<Db, Map<string, unknown>>();

/**
 * A query built and prepared once per database, for the hot paths (every request, every note
 * page): drizzle's query building and SQLite's statement preparation then cost nothing.
 * `build` must use sql.placeholder for its parameters.
 */
export function prepared<T>(db: Db, name: string, build: (db: Db) => T): T {
  let byName = statements.get(db);
  if (!byName) {
    byName = new Map();
    statements.set(db, byName);
  }
  let statement = byName.get(name) as T | undefined;
  if (statement === undefined) {
    statement = build(db);
    byName.set(name, statement);
  }
  return statement;
}
