import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { OPERATOR_BACKUPS } from "../../src/services/backups/snapshot";
import { postgresTestUrl } from "../support/database-under-test";
import { useTestServer } from "../support/server";
import { sqliteOnly } from "../support/sqlite-only";

describe("admin backups API", () => {
  const server = useTestServer({ ENGRAM_BACKUP_KEEP: "2" });

  test("signed out is 401, a learner is 403, for reading and for taking one", async () => {
    const anonymous = server.client();
    expect((await anonymous.get("/api/admin/backups")).status).toBe(401);
    expect((await anonymous.post("/api/admin/backups")).status).toBe(401);
    const learner = await server.client().loginAs("old_learner");
    expect((await learner.get("/api/admin/backups")).status).toBe(403);
    expect((await learner.post("/api/admin/backups")).status).toBe(403);
    expect(existsSync(join(server.ctx.config.dataDir, "backups"))).toBe(false);
  });

  sqliteOnly("snapshots of the SQLite file").test(
    "the admin sees no backup yet, takes one now, and sees its time; only ENGRAM_BACKUP_KEEP are kept",
    async () => {
      const admin = await server.client().loginAs("admin");
      const before = await admin.get("/api/admin/backups");
      expect(before.status).toBe(200);
      expect(before.body).toMatchObject({ lastBackupAt: null, intervalHours: 24, keep: 2, backups: [] });
      expect(before.body.nextBackupAt).toEqual(expect.any(String)); // the automatic schedule runs

      const taken = await admin.post("/api/admin/backups");
      expect(taken.status).toBe(200);
      expect(taken.body.backup.file).toStartWith(join(server.ctx.config.dataDir, "backups", "engram-"));
      expect(taken.body.lastBackupAt).toBe(taken.body.backup.takenAt);
      const db = new Database(taken.body.backup.file, { readonly: true });
      expect(db.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
      expect(db.query("SELECT count(*) AS n FROM accounts WHERE admin = 1").get()).toEqual({ n: 1 });
      db.close();

      await admin.post("/api/admin/backups");
      const third = await admin.post("/api/admin/backups");
      const status = await admin.get("/api/admin/backups");
      expect(status.body.lastBackupAt).toBe(third.body.backup.takenAt);
      expect(status.body.backups).toHaveLength(2);
      expect(readdirSync(join(server.ctx.config.dataDir, "backups"))).toHaveLength(2);
    },
  );
});

describe.skipIf(!postgresTestUrl())("admin backups API on PostgreSQL", () => {
  const server = useTestServer();

  test("the status says backups are the operator's, with no schedule and no snapshots", async () => {
    const admin = await server.client().loginAs("admin");
    const status = await admin.get("/api/admin/backups");
    expect(status.status).toBe(200);
    expect(status.body).toEqual({
      lastBackupAt: null,
      intervalHours: 0,
      keep: 0,
      nextBackupAt: null, // the automatic scheduler is off
      lastProblem: null,
      backups: [],
      operatorBackups: OPERATOR_BACKUPS,
    });
  });

  test("taking one now is refused with the same explanation, and nothing is written", async () => {
    const admin = await server.client().loginAs("admin");
    const taken = await admin.post("/api/admin/backups");
    expect(taken.status).toBe(400);
    expect(taken.body.message).toBe(OPERATOR_BACKUPS);
    expect(existsSync(join(server.ctx.config.dataDir, "backups"))).toBe(false);
  });
});
