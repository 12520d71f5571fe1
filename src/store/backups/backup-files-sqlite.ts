/**
 * Backups and restores are operations on Engram's SQLite file as a whole: an online copy
 * (VACUUM INTO, one read transaction, so writers go on in WAL mode), SQLite's integrity check,
 * the migrations a file holds, whether another connection has it open, and folding a copy's WAL
 * into it. The file handling around them (names, folders, renames, pruning) is the backups
 * service's (src/services/backups). On PostgreSQL backups are the operator's (pg_dump,
 * point-in-time recovery): `backupConnection` refuses with the one line that says so.
 */
import { Database } from "bun:sqlite";
import { existsSync, linkSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Database as StoreDatabase } from "../database";

/** An open connection to a database file (the server's, or one opened for a backup). */
export type DatabaseConnection = Database;

/** What Engram says instead of taking or restoring a backup of a PostgreSQL database. */
export const BACKUPS_ARE_THE_OPERATORS =
  "Engram keeps its data in PostgreSQL: backups are the operator's (pg_dump, or the server's point-in-time recovery); Engram takes and restores none.";

/** Backups of a PostgreSQL database are refused: see `backupConnection`. */
export class BackupsOnPostgresError extends Error {
  constructor() {
    super(BACKUPS_ARE_THE_OPERATORS);
    this.name = "BackupsOnPostgresError";
  }
}

/**
 * The SQLite connection a backup works on; on PostgreSQL a BackupsOnPostgresError (the operator
 * backs the server up), never a pretended backup.
 */
export function backupConnection(database: StoreDatabase): DatabaseConnection {
  const connection = (database as { connection?: unknown }).connection;
  if (database.dialect !== "sqlite" || !(connection instanceof Database)) throw new BackupsOnPostgresError();
  return connection;
}

/** Answers undefined when sound, else the problems integrity_check found (first few). */
export function integrityProblems(db: DatabaseConnection): string | undefined {
  const rows = db.query<{ integrity_check: string }, []>("PRAGMA integrity_check(5)").all();
  const messages = rows.map((r) => r.integrity_check);
  return messages.length === 1 && messages[0] === "ok" ? undefined : messages.join("; ");
}

/** Checks a database file; answers the problem, or undefined when it is sound. */
export function checkFileIntegrity(file: string): string | undefined {
  let db: Database | undefined;
  try {
    db = new Database(file, { readwrite: true, create: false });
    return integrityProblems(db);
  } catch (error) {
    return (error as Error).message;
  } finally {
    db?.close();
  }
}

/** Writes a consistent copy of the open database into `file` (which must not exist). */
export function vacuumInto(source: DatabaseConnection, file: string) {
  source.run("VACUUM INTO ?", [file]);
}

/** Opens an existing database file for a snapshot from another process (no migrations, no creation). */
export function openDatabaseFile(file: string): DatabaseConnection {
  const db = new Database(file, { readwrite: true, create: false });
  db.run("PRAGMA busy_timeout = 5000");
  return db;
}

/** Bytes the database holds now (what a snapshot needs, at most). */
export function databaseBytes(db: DatabaseConnection): number {
  const pages = db.query<{ page_count: number }, []>("PRAGMA page_count").get()!.page_count;
  const size = db.query<{ page_size: number }, []>("PRAGMA page_size").get()!.page_size;
  return pages * size;
}

/**
 * The creation time of the newest migration applied to a database file (drizzle's created_at);
 * null when the file has no migrations table (it is not Engram's).
 */
export function lastAppliedMigration(file: string): number | null {
  const db = new Database(file, { readwrite: true, create: false });
  try {
    const table = db.query("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = '__drizzle_migrations'").get();
    if (!table) return null;
    const last = db.query<{ last: number | null }, []>("SELECT max(created_at) AS last FROM __drizzle_migrations").get();
    return Number(last?.last ?? -1);
  } finally {
    db.close();
  }
}

/** Folds a database file's -wal into it and leaves it a single file (rollback journal mode). */
export function foldWal(file: string) {
  const db = new Database(file, { readwrite: true, create: false });
  try {
    db.run("PRAGMA wal_checkpoint(TRUNCATE)");
    db.run("PRAGMA journal_mode = DELETE");
  } finally {
    db.close();
  }
}

const SIDE_FILES = ["", "-wal", "-shm", "-journal"];

/**
 * True when another connection (a running Engram) has the database open: an exclusive lock on
 * the file is refused at once. Uses SQLite's own locks, so a crashed server never blocks (the OS
 * drops its locks). The lock is tried through a hard link to the same file, so that SQLite does
 * not see (and checkpoint or delete) the -wal beside engram.db; where hard links are not
 * possible, the file itself is opened.
 */
export function databaseInUse(file: string): boolean {
  if (!existsSync(file)) return false;
  const link = join(dirname(file), `.engram-in-use-check-${process.pid}.db`);
  const removeLink = () => {
    for (const suffix of SIDE_FILES) rmSync(link + suffix, { force: true });
  };
  removeLink();
  let path = file;
  try {
    linkSync(file, link);
    path = link;
  } catch {
    // no hard links on this file system: try the lock on the file itself
  }
  let db: Database | undefined;
  try {
    db = new Database(path, { readwrite: true, create: false });
    db.run("PRAGMA busy_timeout = 0");
    db.run("PRAGMA locking_mode = EXCLUSIVE");
    db.run("BEGIN EXCLUSIVE");
    db.run("COMMIT");
    return false;
  } catch (error) {
    const code = (error as { code?: string }).code ?? "";
    if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) return true;
    // A database we cannot even open is not in use by a healthy Engram; the caller moves it aside.
    return false;
  } finally {
    db?.close();
    if (path === link) removeLink();
  }
}
