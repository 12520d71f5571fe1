/**
 * A worker process's own Database, beside the server's: on Engram's SQLite file (the server
 * migrated it already, so this only opens it as the server does — WAL, foreign keys, sqlite-vec
 * for the triggers that need it — with a longer busy timeout of its own) or on its PostgreSQL
 * database (a small pool of its own). The same stores are built on it. A worker runs only async
 * units, short ones with pauses between them, so the server's writers get their turn within
 * milliseconds on either database.
 */
import { Database as SqliteConnection } from "bun:sqlite";
import { drizzle } from "drizzle-orm/bun-sqlite";
import * as schema from "../db/schema";
import { loadSqliteVec } from "../db/sqlite-vec";
import { type Database, SqliteDatabase } from "./database";
import type { DatabasePlace } from "./database-place";
import { createStores, type Stores } from "./index";
import { openPostgres } from "./postgres-database";

/** A worker runs one unit at a time, and reads between them: two connections are plenty. */
const WORKER_POOL_SIZE = 2;

export interface WorkerDatabase {
  readonly database: Database;
  readonly stores: Stores;
  /** Closes it at once (every unit has ended by then); the server checkpoints SQLite's WAL, not a worker. */
  close(): Promise<void>;
}

function openSqliteFile(file: string): SqliteDatabase {
  const connection = new SqliteConnection(file, { create: false, readwrite: true, strict: true });
  connection.run("PRAGMA busy_timeout = 10000");
  connection.run("PRAGMA journal_mode = WAL");
  connection.run("PRAGMA synchronous = NORMAL");
  connection.run("PRAGMA foreign_keys = ON");
  loadSqliteVec(connection);
  return new SqliteDatabase(connection, drizzle({ client: connection, schema }));
}

export async function openWorkerDatabase(location: DatabasePlace): Promise<WorkerDatabase> {
  if ("postgresUrl" in location) {
    const database = await openPostgres(location.postgresUrl, WORKER_POOL_SIZE);
    return { database, stores: createStores(database), close: () => database.close() };
  }
  const database = openSqliteFile(location.sqliteFile);
  return { database, stores: createStores(database), close: async () => database.connection.close() };
}
