import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Elysia } from "elysia";
import { readConfig } from "../../src/config";
import { createSqliteContext, type SqliteAppContext } from "../../src/context";
import { jobWorker } from "../../src/jobs/plugin";
import { enqueue } from "../../src/jobs/queue";
import { defineJob } from "../../src/jobs/registry";
import { isShuttingDown, onShutdown, shutDown } from "../../src/lifecycle";

describe("graceful shutdown", () => {
  const folders: string[] = [];
  afterAll(() => {
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });
  function newContext(): { ctx: SqliteAppContext; file: string } {
    const dataDir = mkdtempSync(join(tmpdir(), "engram-lifecycle-"));
    folders.push(dataDir);
    return { ctx: createSqliteContext(readConfig({ ENGRAM_MODE: "test", ENGRAM_DATA_DIR: dataDir })), file: join(dataDir, "engram.db") };
  }
  /** Reads the database file after the shutdown closed it. */
  function reopen<T>(file: string, read: (db: Database) => T): T {
    const db = new Database(file, { readonly: true });
    try {
      return read(db);
    } finally {
      db.close();
    }
  }

  test("runs every registered step at once, waits for them, then checkpoints and closes the database", async () => {
    const { ctx, file } = newContext();
    ctx.sqlite.run("CREATE TABLE notes_written_at_shutdown (text TEXT)");
    const events: string[] = [];
    onShutdown(ctx, "stream", () => {
      events.push("stream closed");
    });
    onShutdown(ctx, "scheduler", async () => {
      expect(isShuttingDown(ctx)).toBe(true);
      await Bun.sleep(100);
      ctx.sqlite.run("INSERT INTO notes_written_at_shutdown VALUES ('last backup done')");
      events.push("scheduler stopped");
    });
    const leaving = onShutdown(ctx, "left before", () => {
      events.push("must not run");
    });
    leaving();
    expect(isShuttingDown(ctx)).toBe(false);

    const report = await shutDown(ctx, undefined, { graceMs: 5_000 });
    expect(report).toEqual({ requestsFinished: true, unfinishedSteps: [] });
    expect(events).toEqual(["stream closed", "scheduler stopped"]);
    expect(() => ctx.sqlite.run("SELECT 1")).toThrow(); // closed
    expect(statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0).toBe(0);
    expect(reopen(file, (db) => db.query("SELECT text FROM notes_written_at_shutdown").all())).toEqual([{ text: "last backup done" }]);
  });

  test("a step still running when the grace ends is told so and named in the report; shutdown does not wait longer", async () => {
    const { ctx } = newContext();
    let toldGraceOver = false;
    onShutdown(
      ctx,
      "endless stream",
      (graceOver) =>
        new Promise<void>(() => {
          graceOver.addEventListener("abort", () => (toldGraceOver = true));
        }),
    );
    const started = performance.now();
    const report = await shutDown(ctx, undefined, { graceMs: 200 });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(report.unfinishedSteps).toEqual(["endless stream"]);
    expect(toldGraceOver).toBe(true);
  });

  describe("the job worker", () => {
    let release: () => void = () => {};
    const slow = defineJob<{ n: number }>({
      kind: "test-slow-at-shutdown",
      attempts: 3,
      backoff: () => 0,
      async perform() {
        await new Promise<void>((resolve) => (release = resolve));
      },
    });

    /** Starts the worker as the app does (on listen) and answers once it is running the job. */
    async function runningJob() {
      const { ctx, file } = newContext();
      await enqueue(ctx, slow, { n: 1 });
      const hooks = { stopped: 0 };
      const app = new Elysia()
        .use(jobWorker(ctx))
        .onStop(() => void hooks.stopped++)
        .listen({ port: 0, hostname: "127.0.0.1" });
      const deadline = Date.now() + 10_000;
      while (ctx.sqlite.query<{ status: string }, []>("SELECT status FROM jobs").get()?.status !== "running") {
        if (Date.now() > deadline) throw new Error("the worker did not claim the job");
        await Bun.sleep(50);
      }
      return { ctx, file, app, hooks };
    }

    test("a job in progress finishes within the grace and its outcome is written; the app's onStop hooks run", async () => {
      const { ctx, file, app, hooks } = await runningJob();
      setTimeout(() => release(), 200);
      const report = await shutDown(ctx, app, { graceMs: 5_000 });
      expect(report).toEqual({ requestsFinished: true, unfinishedSteps: [] });
      expect(hooks.stopped).toBe(1); // e.g. the backup scheduler's
      expect(reopen(file, (db) => db.query("SELECT COUNT(*) AS n FROM jobs").get())).toEqual({ n: 0 }); // done: removed
    });

    test("a job still running when the grace ends is queued again at once, its interrupted run not counted", async () => {
      const { ctx, file, app } = await runningJob();
      const report = await shutDown(ctx, app, { graceMs: 300 });
      expect(report.unfinishedSteps).toEqual(["job worker"]);
      release(); // the interrupted run ends after the database closed: nothing is written
      await Bun.sleep(50);
      expect(reopen(file, (db) => db.query("SELECT status, attempts, locked_until FROM jobs").all())).toEqual([
        { status: "queued", attempts: 0, locked_until: null },
      ]);
    });
  });
});
