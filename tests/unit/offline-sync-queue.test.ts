import "fake-indexeddb/auto";
import { describe, expect, test } from "bun:test";
import {
  allReports,
  deleteOfflineDb,
  openOfflineDb,
  type QueuedAnswer,
  queueAnswer,
  waitingCount,
} from "../../islands/lib/offline/offline-store";
import { type SendAnswers, syncQueue, wireAnswer } from "../../islands/lib/offline/sync-queue";
import { assimilate, dayHour, travelTo } from "../support/learning";
import { injectNotes } from "../support/notes";
import { type HttpClient, useTestServer } from "../support/server";

/**
 * The device's answer queue (IndexedDB, here fake-indexeddb's implementation of it) against a real
 * server: answers go in the order given, each counts once whatever is retried, and an answer the
 * server did not count becomes a report.
 */
describe("the offline answer queue", () => {
  const server = useTestServer();
  let owners = 0;

  async function world() {
    const learner = await server.client().loginAs("old_learner");
    await travelTo(learner, 0, 8);
    const ids = await injectNotes(learner, [{ Title: "Moon" }, { Title: "Mars" }]);
    const [moon] = await assimilate(learner, ids.Moon!);
    const [mars] = await assimilate(learner, ids.Mars!);
    await travelTo(learner, 1, 15);
    const owner = `test-${Date.now()}-${++owners}`;
    await deleteOfflineDb(owner);
    return { learner, moon: moon!.id, mars: mars!.id, owner, db: await openOfflineDb(owner) };
  }

  /** What the browser sends, through the real endpoint; `sent` records each batch's order. */
  function sender(client: HttpClient, sent: string[][] = []): SendAnswers {
    return async (answers) => {
      sent.push(answers.map((a) => a.idempotencyKey));
      const result = await client.post("/api/recalls/offline-answers", { answers: answers.map(wireAnswer) });
      if (result.status !== 200) throw new Error(`sync failed: ${result.status} ${result.text}`);
      return result.body.outcomes;
    };
  }

  let keys = 0;
  const answer = (memoryTrackerId: number, answeredAt: string, successful: boolean, label: string): QueuedAnswer => ({
    idempotencyKey: `queue-key-${Date.now()}-${++keys}`,
    memoryTrackerId,
    answeredAt,
    thinkingTimeMs: 1000,
    answer: { type: "self-review", successful },
    label,
  });

  const reviews = async (client: HttpClient, trackerId: number) =>
    (
      (await client.get(`/api/recall-log?memoryTracker=${trackerId}&limit=200`)).body as {
        kind: string;
        reviewedAt: string;
        outcome: string;
      }[]
    )
      .filter((r) => r.kind !== "assimilation")
      .map((r) => [r.reviewedAt, r.outcome]);

  test("answers are sent in the order they were given and leave the queue once the server has them", async () => {
    const { learner, moon, mars, owner, db } = await world();
    const given = [
      answer(moon, dayHour(1, 9), false, "Moon"),
      answer(mars, dayHour(1, 10), true, "Mars"),
      answer(moon, dayHour(1, 11), true, "Moon"),
    ];
    for (const a of given) await queueAnswer(db, a);
    const sent: string[][] = [];
    const result = await syncQueue(owner, db, sender(learner, sent));
    expect(sent).toEqual([given.map((a) => a.idempotencyKey)]);
    expect(result).toMatchObject({ sent: 3, applied: 3, reported: [] });
    expect(await waitingCount(db)).toBe(0);
    // The second answer for the Moon builds on the first: both count, at their moments.
    expect(await reviews(learner, moon)).toEqual([
      [dayHour(1, 11), "success"],
      [dayHour(1, 9), "failure"],
    ]);
  });

  test("a sync whose reply is lost keeps the answers; sending them again, or from two tabs at once, counts each once", async () => {
    const { learner, moon, mars, owner, db } = await world();
    await queueAnswer(db, answer(moon, dayHour(1, 9), true, "Moon"));
    await queueAnswer(db, answer(mars, dayHour(1, 9), false, "Mars"));
    const send = sender(learner);
    // The server applies the batch, but the reply never arrives.
    const lost = await syncQueue(owner, db, async (answers) => {
      await send(answers);
      throw new TypeError("Failed to fetch");
    });
    expect(lost.error).toBeInstanceOf(TypeError);
    expect(await waitingCount(db)).toBe(2);

    // Two tabs of the same browser sync at once: each sees the same queue.
    const other = await openOfflineDb(owner);
    const [a, b] = await Promise.all([syncQueue(owner, db, send), syncQueue(owner, other, send)]);
    expect(a.applied + b.applied).toBe(2);
    expect(await waitingCount(db)).toBe(0);
    expect(await reviews(learner, moon)).toEqual([[dayHour(1, 9), "success"]]);
    expect(await reviews(learner, mars)).toEqual([[dayHour(1, 9), "failure"]]);
  });

  test("an answer the server does not count becomes a report, once, and the rest go on", async () => {
    const { learner, moon, mars, owner, db } = await world();
    expect((await learner.post(`/api/memory-trackers/${moon}/remove`)).status).toBe(200);
    await queueAnswer(db, answer(moon, dayHour(1, 9), true, "Moon"));
    await queueAnswer(db, answer(mars, dayHour(1, 9), true, "Mars"));
    const result = await syncQueue(owner, db, sender(learner));
    expect(result.applied).toBe(1);
    expect(result.reported).toEqual([expect.objectContaining({ status: "removed", label: "Moon", answeredAt: dayHour(1, 9) })]);
    expect((await allReports(db)).map((r) => r.label)).toEqual(["Moon"]);
    expect(await reviews(learner, mars)).toEqual([[dayHour(1, 9), "success"]]);
  });

  test("more answers than one request takes go in several batches, still in order", async () => {
    const { learner, moon, owner, db } = await world();
    // 120 answers for one tracker, a minute apart: each later one builds on the one before.
    const start = Date.parse(dayHour(1, 9));
    for (let i = 0; i < 120; i++) {
      await queueAnswer(db, answer(moon, new Date(start + i * 60_000).toISOString(), i % 2 === 0, "Moon"));
    }
    const sent: string[][] = [];
    const result = await syncQueue(owner, db, sender(learner, sent));
    expect(sent.map((batch) => batch.length)).toEqual([100, 20]);
    expect(result.applied).toBe(120);
    const times = (await reviews(learner, moon)).map(([at]) => at).reverse();
    expect(times).toEqual([...times].sort());
    expect(times).toHaveLength(120);
  });
});
