/**
 * Online snapshots of Engram's SQLite file: `VACUUM INTO` a temporary file beside the target
 * (one consistent read transaction, so writers keep going in WAL mode), `PRAGMA integrity_check`
 * on the copy, then a rename, so a backup file is either complete and verified or absent.
 * No HTTP here: the CLI (`engram backup`), the scheduler and the admin API share it.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statfsSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import {
  BACKUPS_ARE_THE_OPERATORS,
  checkFileIntegrity,
  type DatabaseConnection,
  databaseBytes,
  openDatabaseFile,
  vacuumInto,
} from "../../store/backups/backup-files-sqlite";

export const DATABASE_FILE_NAME = "engram.db";
/** Snapshots named by `backupFileName` (the only files pruning ever removes). */
const SNAPSHOT_NAME = /^engram-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(?:-\d{3})?Z)\.db$/;

export class BackupError extends Error {}

/** Why Engram on PostgreSQL takes no backups and restores none: said by the CLI and the admin API. */
export const OPERATOR_BACKUPS = BACKUPS_ARE_THE_OPERATORS;

export const databaseFile = (dataDir: string) => join(dataDir, DATABASE_FILE_NAME);
export const backupsDir = (dataDir: string) => join(dataDir, "backups");

/** A time as a file-name-safe stamp: 2026-11-23T22-30-07-123Z. */
export function fileStamp(date: Date): string {
  return date.toISOString().replace(/:/g, "-").replace(".", "-");
}

export const backupFileName = (date: Date) => `engram-${fileStamp(date)}.db`;

export { checkFileIntegrity, databaseBytes };

export interface SnapshotResult {
  file: string;
  bytes: number;
  takenAt: Date;
  durationMs: number;
}

/**
 * Writes a verified snapshot of the open database `source` to `target` (which must not exist):
 * VACUUM INTO a temporary file in the same folder, integrity_check, rename. On any failure the
 * temporary file is removed and a BackupError says why.
 */
export function snapshot(source: DatabaseConnection, target: string, now = new Date()): SnapshotResult {
  const file = resolve(target);
  if (existsSync(file)) throw new BackupError(`${file} already exists; choose another file name`);
  mkdirSync(dirname(file), { recursive: true });
  const temporary = join(dirname(file), `.${basename(file)}.${process.pid}.${Date.now()}.tmp`);
  const started = performance.now();
  try {
    vacuumInto(source, temporary);
    const problem = checkFileIntegrity(temporary);
    if (problem) throw new BackupError(`the snapshot failed its integrity check (${problem})`);
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    if (error instanceof BackupError) throw error;
    throw new BackupError(`the snapshot could not be written to ${file} (${(error as Error).message})`);
  }
  return { file, bytes: statSync(file).size, takenAt: now, durationMs: Math.round(performance.now() - started) };
}

/** Opens the database of a data folder for a snapshot from another process (no migrations, no creation). */
export function openForBackup(dataDir: string): DatabaseConnection {
  const file = databaseFile(dataDir);
  if (!existsSync(file)) throw new BackupError(`there is no database at ${file} (check ENGRAM_DATA_DIR)`);
  return openDatabaseFile(file);
}

export interface BackupEntry {
  name: string;
  file: string;
  bytes: number;
  takenAt: Date;
}

/** The timestamped snapshots in a backups folder, oldest first. */
export function listBackups(dir: string): BackupEntry[] {
  if (!existsSync(dir)) return [];
  const entries: BackupEntry[] = [];
  for (const name of readdirSync(dir)) {
    const match = SNAPSHOT_NAME.exec(name);
    if (!match) continue;
    const [date, time] = match[1]!.split("T") as [string, string];
    const [h, m, s, ms = "000"] = time.replace("Z", "").split("-");
    const takenAt = new Date(`${date}T${h}:${m}:${s}.${ms}Z`);
    const file = join(dir, name);
    entries.push({ name, file, bytes: statSync(file).size, takenAt });
  }
  return entries.sort((a, b) => a.takenAt.getTime() - b.takenAt.getTime() || a.name.localeCompare(b.name));
}

/** Temporary files of snapshots (`.<name>.<pid>.<time>.tmp`), left only by a process that died while writing one. */
const TEMPORARY_NAME = /^\..+\.\d+\.\d+\.tmp$/;
const STALE_TEMPORARY_MS = 24 * 3_600_000;

/**
 * Removes the oldest timestamped snapshots so that `keep` remain, and temporary files older than
 * a day (a snapshot cut short by a crash); answers the files removed.
 */
export function prune(dir: string, keep: number, now = Date.now()): string[] {
  const stale = existsSync(dir)
    ? readdirSync(dir)
        .filter((name) => TEMPORARY_NAME.test(name))
        .map((name) => join(dir, name))
        .filter((file) => now - statSync(file).mtimeMs > STALE_TEMPORARY_MS)
    : [];
  for (const file of stale) rmSync(file, { force: true });
  const entries = listBackups(dir);
  const excess = entries.slice(0, Math.max(0, entries.length - Math.max(1, keep)));
  for (const entry of excess) rmSync(entry.file, { force: true });
  return [...stale, ...excess.map((e) => e.file)];
}

/** Free bytes for this user on the file system of `dir` (its nearest existing ancestor). */
export function freeBytes(dir: string): number {
  let folder = resolve(dir);
  while (!existsSync(folder) && dirname(folder) !== folder) folder = dirname(folder);
  const stats = statfsSync(folder);
  return stats.bavail * stats.bsize;
}

/** Room to keep free beyond the snapshot itself, so a backup never fills the disk Engram writes to. */
export const DISK_RESERVE_BYTES = 256 * 1024 * 1024;

/** Undefined when there is room for a snapshot of `needed` bytes in `dir`, else why not. */
export function diskProblem(dir: string, needed: number, free = freeBytes(dir)): string | undefined {
  if (free >= needed + DISK_RESERVE_BYTES) return undefined;
  const mib = (n: number) => `${Math.round(n / 1024 / 1024)} MiB`;
  return `the disk is nearly full (${mib(free)} free; a snapshot needs ${mib(needed)} plus ${mib(DISK_RESERVE_BYTES)} kept free)`;
}
