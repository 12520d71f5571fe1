/**
 * Opens Engram's database as the app's one Database, the runner of every store: the SQLite file
 * (created and migrated: src/db/connection.ts) by default, or the PostgreSQL database of
 * ENGRAM_DATABASE_URL (checked and migrated under the advisory lock: postgres-database.ts).
 */
import { openDatabase } from "../db/connection";
import type { Database } from "./database";
import { SqliteDatabase } from "./database";
import type { DatabasePlace } from "./database-place";

export type { DatabasePlace } from "./database-place";

export function openSqliteDatabase(file: string): SqliteDatabase {
  const { db, sqlite } = openDatabase(file);
  return new SqliteDatabase(sqlite, db);
}

/** Opens the database at `place` (PostgreSQL's module is loaded only when it is asked for). */
export async function openDatabaseAt(place: DatabasePlace, poolSize?: number): Promise<Database> {
  if ("sqliteFile" in place) return openSqliteDatabase(place.sqliteFile);
  const { openPostgres } = await import("./postgres-database");
  return openPostgres(place.postgresUrl, poolSize);
}
