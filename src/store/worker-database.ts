/**
 * A worker process's own Database on Engram's file: the server migrated it already, so this only
 * opens it as the server does (WAL, foreign keys, sqlite-vec for the triggers that need it) with a
 * longer busy timeout of its own, and builds the same stores on it. A worker writes in short
 * transactions and pauses between them, so that the server's writers, which wait on the lock, get
 * it within milliseconds; an import may also keep one write transaction open across a few awaits
 * (files stored as they are read: `begin`/`commit`), where its store calls become savepoints.
 */
import { Database as SqliteConnection } from "bun:sqlite";
import { drizzle } from "drizzle-orm/bun-sqlite";
import * as schema from "../db/schema";
import { loadSqliteVec } from "../db/sqlite-vec";
import { SqliteDatabase } from "./database";
import { createStores } from "./index";

/** A worker's connection, for the import tasks' queries not on the stores yet. */
export type WorkerConnection = SqliteConnection;

export class WorkerDatabase extends SqliteDatabase {
  readonly stores = createStores(this);

  /** Whether a transaction opened by `begin` (or a unit) is open now. */
  get inTransaction(): boolean {
    return this.connection.inTransaction;
  }

  /** Opens a write transaction that holds the write lock until `commit` or `rollback`. */
  begin() {
    this.connection.run("BEGIN IMMEDIATE");
  }

  commit() {
    this.connection.run("COMMIT");
  }

  /** Rolls back the open transaction, if any. */
  rollback() {
    if (this.connection.inTransaction) this.connection.run("ROLLBACK");
  }

  /** Closes the connection at once (a worker's transactions are all committed or rolled back by then). */
  closeNow() {
    this.rollback();
    this.connection.close();
  }
}

export function openWorkerDatabase(file: string): WorkerDatabase {
  const connection = new SqliteConnection(file, { create: false, readwrite: true, strict: true });
  connection.run("PRAGMA busy_timeout = 10000");
  connection.run("PRAGMA journal_mode = WAL");
  connection.run("PRAGMA synchronous = NORMAL");
  connection.run("PRAGMA foreign_keys = ON");
  loadSqliteVec(connection);
  return new WorkerDatabase(connection, drizzle({ client: connection, schema }));
}
