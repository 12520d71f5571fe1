/**
 * Restoring a snapshot into a data folder, safely: refuses while an Engram (or anything else)
 * has the database open, checks the file's integrity and that its schema is not newer than this
 * build's migrations, moves the current database and its -wal/-shm aside into
 * `replaced-<timestamp>/` (never deleting them), then puts a checked copy in place.
 * Also explains a stray -wal at start-up instead of a crash.
 */
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { embeddedMigrations } from "../../db/migrations.generated";
import { databaseInUse, foldWal, lastAppliedMigration } from "../../store/backups/backup-files-sqlite";
import { BackupError, checkFileIntegrity, databaseFile, fileStamp } from "./snapshot";

const SIDE_FILES = ["", "-wal", "-shm", "-journal"];

export { databaseInUse };

/** The newest migration this build knows (drizzle's created_at). */
export const latestKnownMigration = () => Math.max(...embeddedMigrations.map((m) => m.when));

/** Undefined when the file's schema is one this build can run (same or older, migrated on start), else why not. */
export function schemaProblem(file: string): string | undefined {
  const applied = lastAppliedMigration(file);
  if (applied === null) return "it is not an Engram database (no migrations table)";
  if (applied > latestKnownMigration())
    return "it comes from a newer Engram (its schema is newer than this build's migrations); restore it with that version";
  return undefined;
}

export interface RestoreResult {
  restored: string;
  /** The folder the previous database files were moved into (undefined when there were none). */
  replacedDir: string | undefined;
}

/**
 * Restores `backup` as the database of `dataDir`. Throws a BackupError (nothing changed) when
 * the database is in use, or the file is missing, corrupt, not Engram's or from a newer Engram.
 */
export function restoreBackup(dataDir: string, backup: string, now = new Date()): RestoreResult {
  const source = resolve(backup);
  const target = databaseFile(dataDir);
  if (!existsSync(source)) throw new BackupError(`there is no file ${source}`);
  if (source === resolve(target)) throw new BackupError("that is the current database; choose a backup file");
  if (databaseInUse(target)) {
    throw new BackupError(`Engram (or another program) is using ${target}; stop it first, then restore`);
  }
  mkdirSync(dataDir, { recursive: true });
  // Check a copy beside the target: the backup file itself is never opened for writing, and the
  // final rename is atomic on the same file system.
  const staging = join(dataDir, `.restoring-${fileStamp(now)}.db`);
  const cleanStaging = () => {
    for (const suffix of SIDE_FILES) rmSync(staging + suffix, { force: true });
  };
  cleanStaging();
  try {
    copyFileSync(source, staging);
    for (const suffix of ["-wal", "-shm"]) if (existsSync(source + suffix)) copyFileSync(source + suffix, staging + suffix);
    const problem = checkFileIntegrity(staging);
    if (problem) throw new BackupError(`${source} is not a sound database (${problem}); nothing was changed`);
    const schema = schemaProblem(staging);
    if (schema) throw new BackupError(`${source} cannot be restored: ${schema}; nothing was changed`);
    // Fold any -wal of the copy into it, so a single file goes in place.
    foldWal(staging);
  } catch (error) {
    cleanStaging();
    if (error instanceof BackupError) throw error;
    throw new BackupError(`${source} is not a sound database (${(error as Error).message}); nothing was changed`);
  }

  let replacedDir: string | undefined;
  const present = SIDE_FILES.filter((suffix) => existsSync(target + suffix));
  if (present.length) {
    replacedDir = join(dataDir, `replaced-${fileStamp(now)}`);
    mkdirSync(replacedDir, { recursive: true });
    for (const suffix of present) renameSync(target + suffix, join(replacedDir, `engram.db${suffix}`));
  }
  renameSync(staging, target);
  cleanStaging();
  return { restored: target, replacedDir };
}

/**
 * The one line for a database that cannot be opened because of a -wal that does not belong to
 * it (e.g. a backup copied over engram.db while the old engram.db-wal stayed); undefined for
 * any other error.
 */
export function strayWalProblem(error: unknown, file: string, walThere = existsSync(`${file}-wal`)): string | undefined {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  const corrupt = code?.startsWith("SQLITE_CORRUPT") || code === "SQLITE_NOTADB" || /malformed|not a database/i.test(message ?? "");
  if (!corrupt || !walThere) return undefined;
  return `${file} cannot be opened with the ${file}-wal beside it (it does not belong to this database, e.g. a backup was copied over engram.db): move ${file}-wal and ${file}-shm aside, or restore with \`engram restore <file>\` / \`npm run restore -- <file>\`.`;
}
