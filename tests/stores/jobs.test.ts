import { describe, expect, test } from "bun:test";
import { jobsStore } from "../../src/store/jobs/jobs-store";
import { databaseUnderTestOfFile } from "../support/database-under-test";

const under = databaseUnderTestOfFile();

const lease = 60_000;
const batchOf = (size: number) => () => size;

describe(`jobs store`, () => {
  test("enqueue de-duplicates queued payloads; a claim takes the due jobs of one kind, oldest first", async () => {
    const { jobs } = under.stores;
    expect(await jobs.enqueue({ kind: "embed", payloads: ['{"n":1}', '{"n":2}'], runAt: 100, dedupe: true }, 0)).toBe(2);
    expect(await jobs.enqueue({ kind: "embed", payloads: ['{"n":1}', '{"n":3}'], runAt: 50, dedupe: true }, 0)).toBe(1);
    expect(await jobs.enqueue({ kind: "later", payloads: ["{}"], runAt: 10_000, dedupe: false }, 0)).toBe(1);
    expect(await jobs.claimDue(20, lease, batchOf(10))).toEqual([]);
    const claimed = await jobs.claimDue(200, lease, batchOf(10));
    expect(claimed.map((job) => job.payload)).toEqual(['{"n":3}', '{"n":1}', '{"n":2}']);
    expect(claimed.every((job) => job.attempts === 1 && job.lockedUntil === 200 + lease)).toBe(true);
    // Claimed jobs are not queued any more: the same payload may be queued again.
    expect(await jobs.enqueue({ kind: "embed", payloads: ['{"n":1}'], runAt: 100, dedupe: true }, 0)).toBe(1);
    await jobs.complete(claimed);
    const again = await jobs.claimDue(300, lease, batchOf(10));
    expect(again.map((job) => job.payload)).toEqual(['{"n":1}']);
    await jobs.complete(again);
  });

  test("renew, requeue, fail and a lease run out: only the claim's holder changes its job", async () => {
    const { jobs } = under.stores;
    await jobs.enqueue({ kind: "k", payloads: ["{}"], runAt: 0, dedupe: false }, 0);
    const [job] = await jobs.claimDue(1000, 100, batchOf(1));
    expect(job).toBeDefined();
    const renewed = await jobs.renewLeases([job!], 5000, 1050);
    expect(renewed.map((j) => j.lockedUntil)).toEqual([5000]);
    // The old lease is no longer ours.
    expect(await jobs.renewLeases([job!], 6000, 1060)).toEqual([]);
    // The lease runs out: another claimer takes it over; the first holder's completion changes nothing.
    const [takenOver] = await jobs.claimDue(5000, 100, batchOf(1));
    expect(takenOver?.id).toBe(job!.id);
    expect(takenOver?.attempts).toBe(2);
    await jobs.complete(renewed);
    await jobs.requeue([takenOver!], 5001);
    const [back] = await jobs.claimDue(5002, 100, batchOf(1));
    expect(back?.attempts).toBe(2);
    await jobs.fail([back!], "boom", null, 5003);
    // Failed for good: only the first test's later job is left to claim.
    const left = await jobs.claimDue(1e12, 100, batchOf(10));
    expect(left.map((j) => j.kind)).toEqual(["later"]);
    await jobs.complete(left);
    expect(await jobs.claimDue(1e12, 100, batchOf(10))).toEqual([]);
  });

  test("a de-duplicated job requeued or retried while its payload is queued again leaves one queued job", async () => {
    const { jobs } = under.stores;
    const all = batchOf(10);
    for (const [how, giveBack] of [
      ["requeued", (job: Parameters<typeof jobs.requeue>[0][number]) => jobs.requeue([job], 2001)],
      ["retried", (job: Parameters<typeof jobs.requeue>[0][number]) => jobs.fail([job], "boom", 2500, 2001)],
    ] as const) {
      expect(await jobs.enqueue({ kind: `again-${how}`, payloads: ["{}"], runAt: 0, dedupe: true }, 0)).toBe(1);
      const [running] = await jobs.claimDue(2000, lease, all);
      expect(running?.kind).toBe(`again-${how}`);
      // While it runs, the same work is asked for again.
      expect(await jobs.enqueue({ kind: `again-${how}`, payloads: ["{}"], runAt: 0, dedupe: true }, 0)).toBe(1);
      await giveBack(running!);
      const queued = await jobs.claimDue(1e12, lease, all);
      expect({ how, queued: queued.map((job) => job.kind) }).toEqual({ how, queued: [`again-${how}`] });
      await jobs.complete(queued);
    }
  });

  test("two claimers at once never take the same job", async () => {
    const other = jobsStore(await under.another());
    const { jobs } = under.stores;
    const payloads = Array.from({ length: 40 }, (_, i) => JSON.stringify({ i }));
    await jobs.enqueue({ kind: "race", payloads, runAt: 0, dedupe: true }, 0);
    const taken: number[] = [];
    const claimer = async (store: typeof jobs) => {
      for (;;) {
        const batch = await store.claimDue(10_000_000, lease, batchOf(3));
        if (batch.length === 0) return;
        taken.push(...batch.map((job) => job.id));
        await store.complete(batch);
      }
    };
    await Promise.all([claimer(jobs), claimer(other), claimer(jobs), claimer(other)]);
    expect(taken.length).toBe(40);
    expect(new Set(taken).size).toBe(40);
  });
});
