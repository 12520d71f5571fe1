/**
 * Raw SQL of a SQLite-only piece whose text varies with its input (a search key's number of words):
 * built with drizzle's `sql` (columns named through `s.t`), compiled to its text, and run through
 * bun:sqlite's statement cache (`query()` keeps one prepared statement per text), so a hot path
 * prepares each shape of query once instead of at every call (drizzle's `db.all(sql)` prepares
 * anew each time). SQLite only: a PostgreSQL piece uses rawAll or prepared.
 */
import type { SQLQueryBindings, Database as SqliteConnection } from "bun:sqlite";
import { fillPlaceholders, type SQL } from "drizzle-orm";
import { memo, type Session, type Step } from "./session";

interface Compiler {
  sqlToQuery(query: SQL): { sql: string; params: unknown[] };
}

function statement(s: Session, query: SQL) {
  if (s.dialect !== "sqlite") throw new Error("A cached SQLite statement runs on SQLite only");
  const db = s.db as unknown as { dialect: Compiler; $client: SqliteConnection };
  const compiled = db.dialect.sqlToQuery(query);
  return { cached: db.$client.query(compiled.sql), params: compiled.params as SQLQueryBindings[] };
}

/** Every row of raw SQL, through the statement cache. */
// biome-ignore lint/correctness/useYield: a SQLite piece answers at once; a generator so bodies compose it with yield*
export function* cachedAll<T>(s: Session, query: SQL): Step<T[]> {
  const { cached, params } = statement(s, query);
  return cached.all(...params) as T[];
}

/** The first row of raw SQL, through the statement cache. */
// biome-ignore lint/correctness/useYield: as cachedAll
export function* cachedOne<T>(s: Session, query: SQL): Step<T | undefined> {
  const { cached, params } = statement(s, query);
  return (cached.get(...params) as T | null) ?? undefined;
}

/**
 * A SQLite-only query of a hot path whose text never varies, compiled and prepared once per
 * database (memo): `build` names its parameters with sql.placeholder, the answer runs it with their
 * values and answers every row. Skips compiling drizzle's `sql` at every call, which cost a
 * search more than SQLite took to answer it.
 */
export function compiledOnce<T>(s: Session, name: string, build: () => SQL): (values: Record<string, unknown>) => T[] {
  return memo(s, `compiled:${name}`, () => {
    const { cached, params } = statement(s, build());
    return (values: Record<string, unknown>) => cached.all(...(fillPlaceholders(params, values) as SQLQueryBindings[])) as T[];
  });
}
