/**
 * A test's own look into the test server's database, whichever it is (SQLite by default, PostgreSQL
 * under `npm run test:postgres`): set-up a route cannot make (a session made old, a row the test
 * breaks on purpose) and checks of what was stored. Write the SQL once, in drizzle's `sql`, with
 * the tables' SQL names (the same on both databases) and values as `${…}` parameters; a time goes
 * in through `at(…)`, a count out through `CAST(count(*) AS integer)` (PostgreSQL's count is a
 * bigint, which arrives as a string). Prefer the query builders on `s.t` through `inRead`/`inWrite`
 * where a row holds times or booleans: drizzle maps them on both databases.
 */
import { type SQL, sql } from "drizzle-orm";
import { rawAll, rawRun, type Session, type Step } from "../../src/store/session";
import type { TestServer } from "./server";

/** Every row of a raw query. */
export function sqlRows<T>(server: TestServer, query: SQL): Promise<T[]> {
  return server.ctx.database.read((s) => rawAll<T>(s, query));
}

/** The first row of a raw query, or undefined. */
export async function sqlRow<T>(server: TestServer, query: SQL): Promise<T | undefined> {
  return (await sqlRows<T>(server, query))[0];
}

/** Runs raw SQL for its effect, in a write unit; answers how many rows it changed. */
export function sqlRun(server: TestServer, query: SQL): Promise<number> {
  return server.ctx.database.write((s) => rawRun(s, query));
}

/** A body (store helpers, the query builders on `s.t`) in a read unit. */
export function inRead<T>(server: TestServer, body: (s: Session) => Step<T>): Promise<T> {
  return server.ctx.database.read(body);
}

/** A body in a write unit: one transaction. */
export function inWrite<T>(server: TestServer, body: (s: Session) => Step<T>): Promise<T> {
  return server.ctx.database.write(body);
}

/**
 * A moment as raw SQL compares and stores it: the milliseconds in SQLite's integer columns, a
 * `timestamptz` on PostgreSQL.
 */
export function at(server: TestServer, moment: Date | number | string): SQL {
  const time = new Date(moment);
  return server.ctx.database.dialect === "sqlite" ? sql`${time.getTime()}` : sql`${time.toISOString()}::timestamptz`;
}

/** True or false as a boolean column holds it: 1/0 on SQLite, a boolean on PostgreSQL. */
export function truth(server: TestServer, value: boolean): SQL {
  return server.ctx.database.dialect === "sqlite" ? sql`${value ? 1 : 0}` : sql`${value}`;
}
