import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readConfig } from "../../src/config";
import { createSqliteContext, type SqliteAppContext } from "../../src/context";
import { claimDueJobs, completeJobs, enqueue, enqueueMany, LEASE_MS, renewJobLeases } from "../../src/jobs/queue";
import { defineJob, exponentialBackoff } from "../../src/jobs/registry";
import { runDueJobs } from "../../src/jobs/worker";

interface JobRecord {
  status: string;
  attempts: number;
  run_at: number;
  last_error: string | null;
  payload: string;
}

describe("the job queue", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "engram-jobs-"));
  const ctx: SqliteAppContext = createSqliteContext(readConfig({ ENGRAM_MODE: "test", ENGRAM_DATA_DIR: dataDir }));
  const start = new Date("2030-01-01T00:00:00.000Z");
  const performed: number[][] = [];
  let failuresLeft = 0;

  // A job that fails while failuresLeft > 0: 3 attempts, 10 s then 40 s between them.
  const flaky = defineJob<{ n: number }>({
    kind: "test-flaky",
    attempts: 3,
    backoff: exponentialBackoff(10_000, 4, 60_000),
    async perform(_ctx, payloads) {
      if (failuresLeft > 0) {
        failuresLeft--;
        throw new Error("not this time");
      }
      performed.push(payloads.map((p) => p.n));
    },
  });
  const batched = defineJob<{ n: number }>({
    kind: "test-batched",
    attempts: 1,
    backoff: () => 0,
    batchSize: 2,
    async perform(_ctx, payloads) {
      performed.push(payloads.map((p) => p.n));
    },
  });

  const jobs = () => ctx.sqlite.query<JobRecord, []>("SELECT status, attempts, run_at, last_error, payload FROM jobs ORDER BY id").all();
  const advance = (ms: number) => ctx.clock.travelTo(new Date(ctx.clock.now().getTime() + ms));

  beforeEach(() => {
    ctx.sqlite.run("DELETE FROM jobs");
    ctx.sqlite.run("DELETE FROM failure_reports");
    ctx.clock.travelTo(start);
    performed.length = 0;
    failuresLeft = 0;
  });
  afterAll(() => {
    ctx.sqlite.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test("a due job runs once and leaves the queue", async () => {
    await enqueue(ctx, flaky, { n: 1 });
    expect(await runDueJobs(ctx)).toBe(1);
    expect(performed).toEqual([[1]]);
    expect(jobs()).toEqual([]);
    expect(await runDueJobs(ctx)).toBe(0);
  });

  test("a job waits for its run time", async () => {
    await enqueue(ctx, flaky, { n: 1 }, { delayMs: 5000 });
    expect(await runDueJobs(ctx)).toBe(0);
    advance(4999);
    expect(await runDueJobs(ctx)).toBe(0);
    advance(1);
    expect(await runDueJobs(ctx)).toBe(1);
    expect(performed).toEqual([[1]]);
  });

  test("a failed job is retried after its backoff, until it succeeds", async () => {
    failuresLeft = 2;
    await enqueue(ctx, flaky, { n: 7 });
    await runDueJobs(ctx);
    expect(jobs()).toEqual([
      { status: "queued", attempts: 1, run_at: start.getTime() + 10_000, last_error: "Error: not this time", payload: '{"n":7}' },
    ]);
    advance(9_999);
    expect(await runDueJobs(ctx)).toBe(0);
    advance(1);
    await runDueJobs(ctx);
    expect(jobs()[0]).toMatchObject({ status: "queued", attempts: 2, run_at: start.getTime() + 10_000 + 40_000 });
    advance(40_000);
    await runDueJobs(ctx);
    expect(performed).toEqual([[7]]);
    expect(jobs()).toEqual([]);
  });

  test("a job that fails every attempt is kept as failed, with its error, and reported", async () => {
    failuresLeft = 10;
    await enqueue(ctx, flaky, { n: 1 });
    for (let i = 0; i < 5; i++) {
      await runDueJobs(ctx);
      advance(60_000);
    }
    expect(jobs()).toEqual([
      { status: "failed", attempts: 3, run_at: expect.any(Number), last_error: "Error: not this time", payload: '{"n":1}' },
    ]);
    expect(failuresLeft).toBe(7);
    expect(ctx.sqlite.query("SELECT count(*) AS n FROM failure_reports").get()).toEqual({ n: 1 });
  });

  test("a payload already queued is not queued again", async () => {
    expect(await enqueue(ctx, flaky, { n: 1 })).toBe(true);
    expect(await enqueue(ctx, flaky, { n: 1 })).toBe(false);
    expect(await enqueueMany(ctx, flaky, [{ n: 1 }, { n: 2 }, { n: 2 }])).toBe(1);
    expect(await enqueue(ctx, batched, { n: 1 })).toBe(true);
    expect(await enqueue(ctx, flaky, { n: 1 }, { dedupe: false })).toBe(true);
    expect(jobs().map((j) => j.payload)).toEqual(['{"n":1}', '{"n":2}', '{"n":1}', '{"n":1}']);
  });

  test("a batched kind takes up to its batch size of due jobs per run, oldest first", async () => {
    await enqueueMany(ctx, batched, [{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(await runDueJobs(ctx)).toBe(3);
    expect(performed).toEqual([[1, 2], [3]]);
  });

  test("a job claimed by a process that stopped runs again once its lease ran out (restarts)", async () => {
    await enqueue(ctx, flaky, { n: 4 });
    const claimed = await claimDueJobs(ctx); // claimed, then the process "died" before finishing
    expect(claimed).toHaveLength(1);
    expect(jobs()[0]).toMatchObject({ status: "running", attempts: 1 });
    expect(await runDueJobs(ctx)).toBe(0);
    advance(LEASE_MS);
    expect(await runDueJobs(ctx)).toBe(1);
    expect(performed).toEqual([[4]]);
    expect(jobs()).toEqual([]);
  });

  test("a run that renews its lease keeps its job past the first lease; only the renewed lease completes it", async () => {
    await enqueue(ctx, flaky, { n: 5 });
    const claimed = await claimDueJobs(ctx);
    advance(LEASE_MS / 2);
    const renewed = await renewJobLeases(ctx, claimed);
    expect(renewed).toHaveLength(1);
    advance(LEASE_MS * 0.75); // past the first lease, within the renewed one
    expect(await claimDueJobs(ctx)).toEqual([]);
    await completeJobs(ctx, claimed); // the stale lease is no longer the job's: nothing happens
    expect(jobs()).toHaveLength(1);
    await completeJobs(ctx, renewed);
    expect(jobs()).toEqual([]);
  });

  test("two connections to one database file queue a de-duplicated payload once and never claim the same job", async () => {
    const other = createSqliteContext(readConfig({ ENGRAM_MODE: "test", ENGRAM_DATA_DIR: dataDir }));
    other.clock.travelTo(ctx.clock.now());
    try {
      expect(await enqueue(ctx, flaky, { n: 8 })).toBe(true);
      expect(await enqueue(other, flaky, { n: 8 })).toBe(false);
      await enqueueMany(other, batched, [{ n: 1 }, { n: 2 }, { n: 3 }]);
      const first = await claimDueJobs(ctx);
      const second = await claimDueJobs(other);
      const third = await claimDueJobs(ctx);
      const ids = [...first, ...second, ...third].map((job) => job.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toHaveLength(4);
      expect(await claimDueJobs(other)).toEqual([]);
    } finally {
      other.sqlite.close();
    }
  });

  test("a job of an unknown kind fails for good", async () => {
    await enqueue(ctx, { kind: "test-nobody-performs-this" }, {});
    await runDueJobs(ctx);
    expect(jobs()[0]).toMatchObject({ status: "failed", last_error: 'Error: Unknown job kind "test-nobody-performs-this"' });
  });
});
