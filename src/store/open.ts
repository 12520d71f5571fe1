/**
 * Opens Engram's database as the app's one Database, the runner of every store: the SQLite file
 * (created and migrated: src/db/connection.ts) by default, or the PostgreSQL database of
 * ENGRAM_DATABASE_URL (checked and migrated under the advisory lock: postgres-database.ts).
 */
import { openDatabase } from "../db/connection";
import type { Database } from "./database";
import { SqliteDatabase } from "./database";

/**
 * Where the database is, as a worker process that opens its own connection needs to know it:
 * the SQLite file, or the PostgreSQL URL. Plain data, so it crosses to a worker as it is.
 */
export type DatabasePlace = { file: string } | { url: string };

export function openSqliteDatabase(file: string): SqliteDatabase {
  const { db, sqlite } = openDatabase(file);
  return new SqliteDatabase(sqlite, db);
}

/** Opens the database at `place` (PostgreSQL's module is loaded only when it is asked for). */
export async function openDatabaseAt(place: DatabasePlace, poolSize?: number): Promise<Database> {
  if ("file" in place) return openSqliteDatabase(place.file);
  const { openPostgres } = await import("./postgres-database");
  return openPostgres(place.url, poolSize);
}

/** The SQLite file of a place, for code that runs on SQLite only so far: on PostgreSQL, an error saying who needs the file. */
export function sqliteFileOf(place: DatabasePlace, who: string): string {
  if ("file" in place) return place.file;
  throw new Error(`${who} opens the SQLite file and does not run on PostgreSQL yet`);
}
