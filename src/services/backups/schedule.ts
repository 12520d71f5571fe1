/**
 * Backups of a running Engram: one now (the admin API) and automatic ones every
 * ENGRAM_BACKUP_INTERVAL hours, keeping the ENGRAM_BACKUP_KEEP newest. Several processes on one
 * database each run a scheduler, and each automatic snapshot is taken by the one that gets its
 * turn (`takeTurn`: a lease in the database), so one snapshot is written per interval. The timer
 * never keeps the process alive (unref) and `stop` ends it. The snapshot itself (VACUUM INTO, the
 * integrity check of the copy) runs in a worker process with its own connection
 * (operations/backup-task.ts): seconds on a large database, during which the server goes on answering.
 */
import type { DatabaseConnection } from "../../store/backups/backup-files-sqlite";
import { runWorkerTask, WorkerTaskError } from "../../workers/run-task";
import { BackupError, backupFileName, backupsDir, databaseBytes, diskProblem, listBackups, prune, type SnapshotResult } from "./snapshot";

export interface BackupSettings {
  dataDir: string;
  /** Hours between automatic snapshots; 0 turns them off. */
  intervalHours: number;
  keep: number;
}

export interface BackupStatus {
  lastBackupAt: string | null;
  intervalHours: number;
  keep: number;
  /** When the next automatic snapshot is due (null when they are off). */
  nextBackupAt: string | null;
  /** Why the last automatic attempt did not write a snapshot, if it did not. */
  lastProblem: string | null;
  backups: { name: string; bytes: number; takenAt: string }[];
  /** On PostgreSQL, the sentence saying backups are the operator's (Engram takes none); null on SQLite. */
  operatorBackups: string | null;
}

type Log = (line: string) => void;

/** Whether this process takes the automatic snapshot due now (the others leave it); given the interval. */
export type TakeTurn = (intervalMs: number) => Promise<boolean>;

/** Writes a verified snapshot of the database of `dataDir` to `target`. */
export type Snapshotter = (dataDir: string, target: string, now: Date) => Promise<SnapshotResult>;

/** The worker of one snapshot: a database of several GB takes minutes; VACUUM INTO needs little memory. */
export const BACKUP_WORKER_LIMITS = { timeoutMs: 60 * 60_000, memoryBytes: 512 * 1024 * 1024 };

/** The snapshot in a worker process; its failures as BackupErrors with the reason. */
export const snapshotInWorker: Snapshotter = async (dataDir, target, now) => {
  try {
    const result = await runWorkerTask("backup", { dataDir, target, now }, BACKUP_WORKER_LIMITS);
    return { ...result, takenAt: new Date(result.takenAt) };
  } catch (error) {
    if (error instanceof WorkerTaskError) throw new BackupError(error.message);
    throw error;
  }
};

export class BackupScheduler {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private nextAt: Date | undefined;
  private lastProblem: string | undefined;

  constructor(
    private readonly sqlite: DatabaseConnection,
    private readonly settings: BackupSettings,
    private readonly log: Log = (line) => console.log(line),
    /** Free bytes on the backups folder's disk (replaced in tests). */
    private readonly freeBytes?: (dir: string) => number,
    private readonly takeTurn: TakeTurn = async () => true,
    private readonly takeSnapshot: Snapshotter = snapshotInWorker,
  ) {}

  get dir() {
    return backupsDir(this.settings.dataDir);
  }

  /** Takes a verified snapshot now into backups/ and prunes; rejects with a BackupError on failure or a full disk. */
  async backupNow(now = new Date()): Promise<SnapshotResult> {
    const needed = databaseBytes(this.sqlite);
    const problem = this.freeBytes ? diskProblem(this.dir, needed, this.freeBytes(this.dir)) : diskProblem(this.dir, needed);
    if (problem) throw new BackupError(problem);
    let name = backupFileName(now);
    const taken = new Set(listBackups(this.dir).map((b) => b.name));
    for (let ms = 1; taken.has(name); ms++) name = backupFileName(new Date(now.getTime() + ms));
    const result = await this.takeSnapshot(this.settings.dataDir, `${this.dir}/${name}`, now);
    prune(this.dir, this.settings.keep);
    return result;
  }

  status(): BackupStatus {
    const backups = listBackups(this.dir);
    const last = backups.at(-1);
    return {
      lastBackupAt: last ? last.takenAt.toISOString() : null,
      intervalHours: this.settings.intervalHours,
      keep: this.settings.keep,
      nextBackupAt: this.nextAt ? this.nextAt.toISOString() : null,
      lastProblem: this.lastProblem ?? null,
      backups: backups.reverse().map((b) => ({ name: b.name, bytes: b.bytes, takenAt: b.takenAt.toISOString() })),
      operatorBackups: null,
    };
  }

  /**
   * Starts automatic snapshots: the first when one is due (never sooner than `firstDelayMs`, or the
   * interval when shorter, after start, so a restart loop does not write one each time), then every
   * interval. Processes sharing the backups folder plan from its newest snapshot, so they plan alike.
   */
  start(firstDelayMs = 60_000) {
    this.stop();
    if (this.settings.intervalHours <= 0) return;
    const last = listBackups(this.dir).at(-1)?.takenAt.getTime() ?? 0;
    const due = Math.max(last + this.intervalMs(), Date.now() + Math.min(firstDelayMs, this.intervalMs()));
    this.schedule(due - Date.now());
  }

  stop() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.nextAt = undefined;
  }

  private intervalMs() {
    return this.settings.intervalHours * 3_600_000;
  }

  private schedule(delayMs: number) {
    // setTimeout holds at most 2^31-1 ms (about 24.8 days): wake up and re-plan for longer delays.
    const wait = Math.min(Math.max(0, delayMs), 2 ** 31 - 1);
    this.nextAt = new Date(Date.now() + delayMs);
    this.timer = setTimeout(() => void this.tick(), wait);
    this.timer.unref?.();
  }

  private async tick() {
    if (this.nextAt && this.nextAt.getTime() > Date.now() + 1000) return this.schedule(this.nextAt.getTime() - Date.now());
    this.timer = undefined;
    try {
      if (await this.takeTurn(this.intervalMs())) {
        const result = await this.backupNow();
        this.lastProblem = undefined;
        this.log(`Backup written: ${result.file} (${result.bytes} bytes, ${result.durationMs} ms)`);
      } else {
        this.log("Backup left to another Engram process on this database");
      }
    } catch (error) {
      this.lastProblem = (error as Error).message;
      this.log(`Backup skipped: ${this.lastProblem}`);
    }
    // Stopped meanwhile: no next one.
    if (this.nextAt) this.schedule(this.intervalMs());
  }
}
