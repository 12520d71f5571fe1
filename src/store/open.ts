/**
 * Opens Engram's SQLite file (creating and migrating it: src/db/connection.ts) as the app's one
 * Database, the runner of every store.
 */
import { openDatabase } from "../db/connection";
import { SqliteDatabase } from "./database";

export function openSqliteDatabase(file: string): SqliteDatabase {
  const { db, sqlite } = openDatabase(file);
  return new SqliteDatabase(sqlite, db);
}
