import { Elysia } from "elysia";
import type { AppContext } from "../context";
import { backupNow, backupScheduler, backupStatus } from "../services/backups";
import { requireUser } from "./authentication";
import { core } from "./core";
import { BackupStatus, BackupTaken } from "./schemas/admin";

/**
 * Backups for the administrator: GET /api/admin/backups (last backup time, schedule, snapshots
 * kept) and POST /api/admin/backups (take a verified snapshot now). 401 signed out, 403 for
 * non-admins. Also runs the automatic snapshots while the app listens (on SQLite: on PostgreSQL
 * backups are the operator's, and both answers say so).
 */
export function backupsApi(ctx: AppContext) {
  return new Elysia({ name: "engram-backups", seed: ctx.instanceId, prefix: "/api/admin" })
    .use(core(ctx))
    .onStart(() => backupScheduler(ctx)?.start())
    .onStop(() => backupScheduler(ctx)?.stop())
    .get("/backups", ({ auth }) => backupStatus(ctx, requireUser(auth)), { access: "admin", response: BackupStatus })
    .post("/backups", ({ auth }) => backupNow(ctx, requireUser(auth)), { access: "admin", response: BackupTaken });
}
