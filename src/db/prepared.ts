import type { Db } from "./connection";

const statements = new WeakMap<Db, Map<string, unknown>>();

/**
 * A query built and prepared once per database, for the hot paths (every request, every note
 * page): drizzle's query building and SQLite's statement preparation then cost nothing.
 * `build` must use sql.placeholder for its parameters.
 */
export function prepared<T>(db: Db, name: string, build: (db: Db) => T): T {
  let byName = statements.get(db);
  if (!byName) statements.set(db, (byName = new Map()));
  let statement = byName.get(name) as T | undefined;
  if (statement === undefined) byName.set(name, (statement = build(db)));
  return statement;
}
