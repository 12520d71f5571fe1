/**
 * The backups of one running Engram instance: its scheduler, created on first use from the
 * configuration (ENGRAM_DATA_DIR, ENGRAM_BACKUP_INTERVAL, ENGRAM_BACKUP_KEEP). On PostgreSQL
 * there is none: the database's backups are its operator's (pg_dump, point-in-time recovery),
 * and the status and "back up now" say so.
 */
import type { AppContext } from "../../context";
import { instanceSlot, instanceValue } from "../../instance-state";
import { BadRequestError, ServiceUnavailableError } from "../errors";
import { authorizeAdmin } from "../policies";
import type { CurrentUser } from "../users";
import { BackupScheduler, type BackupStatus } from "./schedule";
import { BackupError, OPERATOR_BACKUPS, type SnapshotResult } from "./snapshot";

const scheduler = instanceSlot("backup scheduler", (ctx: AppContext): BackupScheduler | undefined => {
  if (ctx.database.dialect === "postgres") return undefined;
  const { dataDir, backupIntervalHours, backupKeep } = ctx.config;
  // Each interval's snapshot is taken by the process that takes the lease, held for most of the
  // interval: the others, planning the same rounds a moment apart, find it held; by the next
  // round it is free again (and taken over if its holder stopped).
  const takeTurn = (intervalMs: number) => ctx.stores.leases.take("automatic backup", ctx.instanceId, intervalMs * 0.9, Date.now());
  return new BackupScheduler(
    ctx.database.connection,
    { dataDir, intervalHours: backupIntervalHours, keep: backupKeep },
    (line) => console.log(line),
    undefined,
    takeTurn,
  );
});

/** The automatic snapshots' scheduler; none on PostgreSQL. */
export const backupScheduler = (ctx: AppContext): BackupScheduler | undefined => instanceValue(ctx, scheduler);

export const ADMIN_ONLY_BACKUPS = "Only an administrator can see and take backups";

/** GET /api/admin/backups: the last backup time, the schedule and the snapshots kept (admin only). */
export function backupStatus(ctx: AppContext, current: CurrentUser): BackupStatus {
  authorizeAdmin(current, ADMIN_ONLY_BACKUPS);
  const scheduler = backupScheduler(ctx);
  if (!scheduler) {
    return {
      lastBackupAt: null,
      intervalHours: 0,
      keep: 0,
      nextBackupAt: null,
      lastProblem: null,
      backups: [],
      operatorBackups: OPERATOR_BACKUPS,
    };
  }
  return scheduler.status();
}

/** POST /api/admin/backups: a verified snapshot now, then the status (admin only). */
export async function backupNow(ctx: AppContext, current: CurrentUser) {
  authorizeAdmin(current, ADMIN_ONLY_BACKUPS);
  const scheduler = backupScheduler(ctx);
  if (!scheduler) throw new BadRequestError(OPERATOR_BACKUPS);
  let result: SnapshotResult;
  try {
    result = await scheduler.backupNow();
  } catch (error) {
    // A full disk or an unwritable backups folder: the admin reads why (503, no failure report).
    if (error instanceof BackupError) throw new ServiceUnavailableError(`The backup was not taken: ${error.message}`);
    throw error;
  }
  return { backup: { file: result.file, bytes: result.bytes, takenAt: result.takenAt.toISOString() }, ...scheduler.status() };
}
