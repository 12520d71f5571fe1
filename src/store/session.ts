/**
 * What a store body works with: the database (or the transaction it runs in), the tables, and the
 * dialect. A body is a generator: it yields each query through the helpers below, so one body runs
 * synchronously on SQLite (every helper answers at once, nothing is yielded) and asynchronously on
 * PostgreSQL (each helper yields the query's promise, the runner resumes the body with its rows).
 * See docs/architecture.md, "Data layer".
 */
import { eq, inArray, type Placeholder, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type * as schema from "../db/schema";

export type Dialect = "sqlite" | "postgres";

/** The tables, typed as the SQLite schema; on PostgreSQL the pg-core twin with the same properties. */
export type Tables = typeof schema;

/** A drizzle database typed as the SQLite one (the query builders are near-identical across dialects). */
export type StoreDb = BunSQLiteDatabase<Tables>;

export interface Session {
  db: StoreDb;
  t: Tables;
  dialect: Dialect;
  /** Values built once per database and kept (prepared statements of hot paths): see `memo`. */
  memos: Map<string, unknown>;
}

/** A store body's generator: yields queries' promises (PostgreSQL only), returns the body's answer. */
export type Step<T> = Generator<unknown, T, unknown>;

/** A body of a store method: the session first, then the method's arguments. */
export type Body<A extends unknown[], R> = (s: Session, ...args: A) => Step<R>;

type Params = Record<string, unknown>;

/** Anything whose rows SQLite answers with `.all()` (a query builder or a prepared query). */
interface ManyRows<T> {
  all(params?: Params): T[];
}
/** Anything whose first row SQLite answers with `.get()`. */
interface OneRow<T> {
  get(params?: Params): T | undefined;
}
/** Anything SQLite runs for its effect with `.run()`. */
interface Runnable {
  run(params?: Params): unknown;
}

/** On PostgreSQL a query builder is a promise of its rows; a prepared query runs with execute(params). */
function pending(query: unknown, params?: Params): PromiseLike<unknown> {
  const prepared = query as { execute?: (params?: Params) => PromiseLike<unknown>; then?: unknown };
  // A prepared statement is not a promise (a query builder is): it runs by execute, with or
  // without parameters; yielding it as it is would hand the statement back as its rows.
  if (typeof prepared.execute === "function" && (params !== undefined || typeof prepared.then !== "function")) {
    return prepared.execute(params);
  }
  return query as PromiseLike<unknown>;
}

/** Every row of a query. */
export function* all<T>(s: Session, query: ManyRows<T>, params?: Params): Step<T[]> {
  if (s.dialect === "sqlite") return query.all(params);
  return (yield pending(query, params)) as T[];
}

/** The first row of a query, or undefined. Add `.limit(1)` when the query may match many rows. */
export function* one<T>(s: Session, query: OneRow<T>, params?: Params): Step<T | undefined> {
  if (s.dialect === "sqlite") return query.get(params);
  const rows = (yield pending(query, params)) as T[];
  return rows[0];
}

/** Runs a statement for its effect; answers how many rows it changed. */
export function* run(s: Session, query: Runnable, params?: Params): Step<number> {
  if (s.dialect === "sqlite") return (query.run(params) as { changes: number }).changes;
  const result = (yield pending(query, params)) as { count?: number; rowCount?: number } | unknown[];
  return Array.isArray(result) ? ((result as { count?: number }).count ?? result.length) : (result.count ?? result.rowCount ?? 0);
}

/**
 * Raw SQL's rows, for what the query builders cannot say (recursive queries, json_each...). Raw
 * SQL names columns through the tables (`sql\`... ${t.notes.title} ...\``), never in strings, so a
 * rename fails the type check; raw SQL that differs between dialects lives in a per-dialect module.
 */
export function* rawAll<T>(s: Session, query: SQL): Step<T[]> {
  if (s.dialect === "sqlite") return s.db.all<T>(query);
  return (yield (s.db as unknown as { execute(q: SQL): PromiseLike<T[]> }).execute(query)) as T[];
}

/** Raw SQL run for its effect; answers how many rows it changed. */
export function* rawRun(s: Session, query: SQL): Step<number> {
  if (s.dialect === "sqlite") return (s.db.run(query) as unknown as { changes: number }).changes;
  const result = (yield (s.db as unknown as { execute(q: SQL): PromiseLike<{ count?: number; rowCount?: number }> }).execute(query)) as {
    count?: number;
    rowCount?: number;
  };
  return result.count ?? result.rowCount ?? 0;
}

/**
 * A value built once per database and kept: a prepared statement of a hot path (every request,
 * every note page), built with sql.placeholder parameters and run with `one/all/run(s, q, params)`.
 */
export function memo<T>(s: Session, name: string, build: () => T): T {
  const kept = s.memos.get(name) as T | undefined;
  if (kept !== undefined) return kept;
  const value = build();
  s.memos.set(name, value);
  return value;
}

/**
 * A query of a hot path prepared once per database (memo) with sql.placeholder parameters; run it
 * with `one/all/run(s, query, params)`. PostgreSQL names its prepared statements.
 */
export function prepared<Q>(s: Session, name: string, build: () => { prepare(name?: string): Q }): Q {
  return memo(s, `prepared:${name}`, () => (s.dialect === "sqlite" ? build().prepare() : build().prepare(name)));
}

/**
 * A time bound to a `sql.placeholder` compared with a time column: a placeholder skips the column's
 * mapping, so it gets what the driver stores, the milliseconds on SQLite (an integer column) and
 * the `Date` itself on PostgreSQL (`timestamptz`, where a number would not compare).
 */
export function timeParam(s: Session, time: Date): number | Date {
  return s.dialect === "sqlite" ? time.getTime() : time;
}

/**
 * The piece of a body that differs between dialects (FTS5 or pg_trgm, json_each or unnest,
 * FOR UPDATE...). A dialect without its piece yet fails loudly rather than run SQLite's SQL.
 */
export function byDialect<T>(s: Session, pieces: Partial<Record<Dialect, () => T>>): T {
  const piece = pieces[s.dialect];
  if (!piece) throw new Error(`This store method has no ${s.dialect} implementation yet`);
  return piece();
}

/**
 * Locks the rows a query reads until the unit of work ends, so that what the body writes next
 * depends on nobody else's concurrent change (a read-then-write). PostgreSQL: SELECT ... FOR UPDATE.
 * SQLite: nothing to add, a write unit holds the database's write lock from its first statement
 * (BEGIN IMMEDIATE), so no other writer runs between its reads and its writes. "no key update" is
 * the lock an UPDATE of the row takes: units adding rows that refer to it do not wait for it.
 */
export function forUpdate<Q>(s: Session, query: Q, strength: "update" | "no key update" = "update"): Q {
  if (s.dialect === "sqlite") return query;
  return (query as unknown as { for(strength: "update" | "no key update"): Q }).for(strength);
}

/** `column` is one of the ids of a JSON array of them, bound as one parameter (a value or a placeholder). */
function inJsonArray(s: Session, column: SQLWrapper, ids: string | Placeholder): SQL {
  return byDialect(s, {
    sqlite: () => sql`${column} IN (SELECT value FROM json_each(${ids}))`,
    // Sent as text: a jsonb parameter would be encoded again, as a JSON string.
    postgres: () => sql`${column} = ANY (SELECT jsonb_array_elements_text(${ids}::text::jsonb)::integer)`,
  });
}

/**
 * `column` is one of the ids of the JSON array bound to placeholder `name`: a prepared statement's
 * list of ids, of any length, as one parameter.
 */
export function inJsonIds(s: Session, column: SQLWrapper, name = "ids"): SQL {
  return inJsonArray(s, column, sql.placeholder(name));
}

/** Lists of ids up to this long are bound one parameter per id; longer ones as one JSON parameter (inIds). */
export const IDS_BOUND_ONE_BY_ONE = 500;

/**
 * `column` is one of these ids, however many (a statement binds at most 65,535 parameters on
 * PostgreSQL, 250,000 on Bun's SQLite). A short list is bound id by id, so the planner sees the
 * values; a longer one as one JSON array, which the planner still joins through the column's
 * index (it guesses such an array's length, so where few rows hold many ids it may scan instead).
 */
export function inIds(s: Session, column: SQLWrapper, ids: readonly number[]): SQL {
  if (ids.length <= IDS_BOUND_ONE_BY_ONE) return inArray(column, ids);
  return inJsonArray(s, column, JSON.stringify(ids));
}

/**
 * Locks one row, by its id, until the unit of work ends: units that read and then write what
 * depends on it take turns from here (see forUpdate; on SQLite there is nothing to read).
 */
export function* lockRow(s: Session, table: SQLiteTable & { id: SQLiteColumn }, id: number): Step<void> {
  if (s.dialect === "sqlite") return;
  yield* one(s, forUpdate(s, s.db.select({ id: table.id }).from(table).where(eq(table.id, id))));
}

/**
 * Whether a failed query broke a unique index or primary key: SQLite's SQLITE_CONSTRAINT_UNIQUE
 * or _PRIMARYKEY, PostgreSQL's 23505 (unique_violation). For a body or store that expects one.
 */
export function isUniqueViolation(error: unknown): boolean {
  const { code, errno } = (error ?? {}) as { code?: unknown; errno?: unknown };
  return code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY" || errno === "23505";
}

/**
 * Runs part of a body whose failure the body means to catch (a unique violation it expects). On
 * PostgreSQL a failed statement aborts the whole transaction, so the part runs in a savepoint and
 * a failure rolls back to it, leaving the unit usable; on SQLite a failed statement undoes only
 * itself, and the part runs as it is.
 */
export function* trying<T>(s: Session, part: () => Step<T>): Step<T> {
  if (s.dialect === "sqlite") return yield* part();
  yield* rawRun(s, sql`SAVEPOINT engram_trying`);
  try {
    const answer = yield* part();
    yield* rawRun(s, sql`RELEASE SAVEPOINT engram_trying`);
    return answer;
  } catch (error) {
    yield* rawRun(s, sql`ROLLBACK TO SAVEPOINT engram_trying`);
    throw error;
  }
}
