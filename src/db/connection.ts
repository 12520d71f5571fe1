import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { whileBusy } from "./busy";
import { migrate } from "./migrate";
import * as schema from "./schema";
import { loadSqliteVec } from "./sqlite-vec";

export type Db = ReturnType<typeof openDatabase>["db"];

/** How long opening waits for another process opening the same file (the connection's busy timeout). */
const OPEN_BUSY_WAIT_MS = 5000;

/**
 * The database or one of its transactions. Helpers that write take this, so that inside a
 * transaction they write through the transaction's handle, never around it.
 */
export type DbHandle = Pick<Db, "select" | "insert" | "update" | "delete">;

/**
 * Opens (creating if needed) Engram's one SQLite file: WAL with synchronous=NORMAL (crash-safe,
 * much faster single-row writes), foreign keys on, a busy timeout, sqlite-vec loaded, and every
 * pending migration applied.
 */
export function openDatabase(file: string) {
  if (file !== ":memory:") mkdirSync(dirname(file), { recursive: true });
  const sqlite = new Database(file, { create: true, strict: true });
  // The busy timeout first: another process opening the same new file at once holds its lock while
  // it turns WAL on, and this one waits for it instead of failing with "database is locked".
  sqlite.run(`PRAGMA busy_timeout = ${OPEN_BUSY_WAIT_MS}`);
  // Turning WAL on may still answer SQLITE_BUSY at once, without waiting (about 1 start in 25 of
  // two processes on one new file): tried again for as long as the busy timeout.
  whileBusy(() => sqlite.run("PRAGMA journal_mode = WAL"), OPEN_BUSY_WAIT_MS);
  sqlite.run("PRAGMA synchronous = NORMAL");
  sqlite.run("PRAGMA foreign_keys = ON");
  loadSqliteVec(sqlite);
  migrate(sqlite);
  const db = drizzle({ client: sqlite, schema });
  // Every drizzle transaction takes the write lock at its start (BEGIN IMMEDIATE), as the stores'
  // write units do: a transaction's reads and the writes that depend on them (a sibling order, a
  // count) then see no other process's write in between, instead of failing with SQLITE_BUSY.
  const transaction = db.transaction.bind(db);
  db.transaction = (run, config) => transaction(run, { behavior: "immediate", ...config });
  return { sqlite, db };
}
