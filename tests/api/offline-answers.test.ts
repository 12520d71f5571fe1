import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import type { OfflineAnswerOutcome } from "../../src/services/memory/offline-answers";
import type { OfflineItemJson } from "../../src/services/memory/offline-pack";
import { assimilate, dayHour, travelTo } from "../support/learning";
import { injectNotes } from "../support/notes";
import { scriptGoodQuestion, useRecallPromptWorld } from "../support/recall-prompts";
import { type HttpClient, useTestServer } from "../support/server";
import { at, sqlRun } from "../support/test-database";

let keys = 0;
const key = () => `key-${Date.now()}-${++keys}`;

const review = (memoryTrackerId: number, answeredAt: string, successful: boolean, idempotencyKey = key(), thinkingTimeMs = 4200) => ({
  idempotencyKey,
  memoryTrackerId,
  answeredAt,
  thinkingTimeMs,
  answer: { type: "self-review", successful },
});

const sync = (client: HttpClient, answers: unknown[]) => client.post("/api/recalls/offline-answers", { answers });
interface LogRow {
  kind: string;
  outcome: string;
  reviewedAt: string;
  thinkingTimeMs: number | null;
  elapsedHours: number | null;
  stateAfter: { lastRecalledAt: string; nextRecallAt: string };
}
const log = async (client: HttpClient, trackerId: number) =>
  (await client.get(`/api/recall-log?memoryTracker=${trackerId}`)).body as LogRow[];

describe("answers given offline, synced later", () => {
  const server = useTestServer();

  async function learnerWithTracker(title = "Moon", details = "partner of earth") {
    const learner = await server.client().loginAs("old_learner");
    await travelTo(learner, 0, 8);
    const ids = await injectNotes(learner, [{ Title: "Space" }, { Title: title, Details: details, "Parent Title": "Space" }]);
    const [tracker] = await assimilate(learner, ids[title]!);
    return { learner, ids, trackerId: tracker!.id };
  }

  test("an answer is scheduled as of the moment it was given, and the log shows that moment and its thinking time", async () => {
    const { learner, trackerId } = await learnerWithTracker();
    // Given offline on day 1 at 09:00, sent on day 1 at 15:00.
    await travelTo(learner, 1, 15);
    const result = await sync(learner, [review(trackerId, dayHour(1, 9), true)]);
    expect(result.status).toBe(200);
    expect(result.body.outcomes).toEqual([
      expect.objectContaining({ memoryTrackerId: trackerId, status: "applied", correct: true, reviewedAt: dayHour(1, 9) }),
    ]);
    const [row] = await log(learner, trackerId);
    expect(row).toMatchObject({
      kind: "self-review",
      outcome: "success",
      reviewedAt: dayHour(1, 9),
      thinkingTimeMs: 4200,
      elapsedHours: 25,
    });
    const tracker = (await learner.get(`/api/memory-trackers/${trackerId}`)).body;
    // From 09:00, not from 15:00: one place on the curve (1 day) later.
    expect(tracker).toMatchObject({ lastRecalledAt: dayHour(1, 9), nextRecallAt: dayHour(2, 9), repetitionCount: 1 });
  });

  test("FSRS counts the days elapsed up to the moment given and schedules from it", async () => {
    const { learner, trackerId } = await learnerWithTracker();
    const user = (await learner.get("/api/user")).body;
    expect((await learner.patch(`/api/user/${user.id}`, { name: user.name, scheduler: "fsrs" })).status).toBe(200);
    await travelTo(learner, 5, 8);
    const [outcome] = (await sync(learner, [review(trackerId, dayHour(3, 8), true)])).body.outcomes;
    expect(outcome).toMatchObject({ status: "applied", reviewedAt: dayHour(3, 8) });
    const [row] = await log(learner, trackerId);
    expect(row).toMatchObject({ reviewedAt: dayHour(3, 8), elapsedHours: 72 });
    expect(row!.stateAfter.lastRecalledAt).toBe(dayHour(3, 8));
    expect(Date.parse(row!.stateAfter.nextRecallAt)).toBeGreaterThan(Date.parse(dayHour(3, 8)));
  });

  test("a key counts once: the same batch again, or two requests at once, give the stored outcome and one review", async () => {
    const { learner, trackerId } = await learnerWithTracker();
    await travelTo(learner, 1, 15);
    const batch = [review(trackerId, dayHour(1, 9), false)];
    const first = (await sync(learner, batch)).body.outcomes;
    const again = (await sync(learner, batch)).body.outcomes;
    expect(again).toEqual(first);
    const [a, b] = await Promise.all([sync(learner, batch), sync(learner, batch)]);
    expect(a.body.outcomes).toEqual(first);
    expect(b.body.outcomes).toEqual(first);
    expect((await log(learner, trackerId)).map((r) => r.kind)).toEqual(["self-review", "assimilation"]);
    // Keys are the user's: another learner's answer under the same key is not confused with it.
    const other = await server.client().loginAs("another_old_learner");
    const ids = await injectNotes(other, [{ Title: "Mars" }], "another_old_learner");
    const [mars] = await assimilate(other, ids.Mars!);
    const [theirs] = (await sync(other, [review(mars!.id, dayHour(1, 15), true, batch[0]!.idempotencyKey)])).body.outcomes;
    expect(theirs).toMatchObject({ status: "applied", memoryTrackerId: mars!.id });
  });

  test("answers are applied in the order given: a later one builds on an earlier one; one given before a logged review is reported", async () => {
    const { learner, trackerId } = await learnerWithTracker();
    await travelTo(learner, 2, 15);
    const outcomes = (await sync(learner, [review(trackerId, dayHour(1, 9), false), review(trackerId, dayHour(2, 10), true)])).body
      .outcomes;
    expect(outcomes.map((o: OfflineAnswerOutcome) => o.status)).toEqual(["applied", "applied"]);
    expect((await log(learner, trackerId)).map((r) => [r.reviewedAt, r.outcome])).toEqual([
      [dayHour(2, 10), "success"],
      [dayHour(1, 9), "failure"],
      [dayHour(0, 8), "success"],
    ]);
    // Given on day 1 at 12:00, but the tracker was reviewed after that: not applied, and said so.
    const [late] = (await sync(learner, [review(trackerId, dayHour(1, 12), true)])).body.outcomes;
    expect(late.status).toBe("answered-later");
    expect(await log(learner, trackerId)).toHaveLength(3);
  });

  test("removed trackers, others' trackers and too old answers are reported, never applied; a future moment is taken as now", async () => {
    const { learner, ids, trackerId } = await learnerWithTracker();
    const more = await injectNotes(learner, [{ Title: "Venus", "Parent Title": "Space" }]);
    const [venus] = await assimilate(learner, more.Venus!);
    expect((await learner.post(`/api/memory-trackers/${trackerId}/remove`)).status).toBe(200);
    const other = await server.client().loginAs("another_old_learner");
    const theirIds = await injectNotes(other, [{ Title: "Mars" }], "another_old_learner");
    const [mars] = await assimilate(other, theirIds.Mars!);
    await travelTo(learner, 40, 8);
    const outcomes = (
      await sync(learner, [
        review(trackerId, dayHour(39, 9), true),
        review(mars!.id, dayHour(39, 9), true),
        review(999_999, dayHour(39, 9), true),
        review(venus!.id, dayHour(5, 9), true),
        review(venus!.id, dayHour(41, 9), true),
      ])
    ).body.outcomes;
    expect(outcomes.map((o: OfflineAnswerOutcome) => o.status)).toEqual(["removed", "out-of-reach", "removed", "too-old", "applied"]);
    expect(outcomes[4].reviewedAt).toBe(dayHour(40, 8));
    expect((await log(other, mars!.id)).map((r) => r.kind)).toEqual(["assimilation"]);
    expect(ids.Moon).toBeGreaterThan(0);
  });

  test("a tracker assimilated again after the answer was given reports a reset", async () => {
    const { learner, ids, trackerId } = await learnerWithTracker();
    await travelTo(learner, 1, 9);
    // A deleted note's tracker goes with it; assimilating the note again makes a new one.
    const again = at(server, dayHour(1, 9));
    await sqlRun(server, sql`UPDATE memory_trackers SET assimilated_at = ${again}, last_recalled_at = ${again} WHERE id = ${trackerId}`);
    await travelTo(learner, 1, 15);
    const [outcome] = (await sync(learner, [review(trackerId, dayHour(1, 8), true)])).body.outcomes;
    expect(outcome.status).toBe("reset");
    expect(ids.Moon).toBeGreaterThan(0);
  });

  test("a spelling given offline is judged by the server; one for a normal tracker is refused, in words", async () => {
    const learner = await server.client().loginAs("old_learner");
    await travelTo(learner, 0, 8);
    const ids = await injectNotes(learner, [{ Title: "sedition", Details: "inciting people to rebel" }]);
    await learner.post(`/api/notes/${ids.sedition}/review-setting`, { rememberSpelling: true });
    const [normal, spelling] = await assimilate(learner, ids.sedition!);
    await travelTo(learner, 1, 15);
    const spell = (memoryTrackerId: number, spellingAnswer: string) => ({
      idempotencyKey: key(),
      memoryTrackerId,
      answeredAt: dayHour(1, 9),
      answer: { type: "spelling", spellingAnswer },
    });
    const outcomes = (await sync(learner, [spell(spelling!.id, "Sedition"), spell(normal!.id, "sedition")])).body.outcomes;
    expect(outcomes[0]).toMatchObject({ status: "applied", correct: true, reviewedAt: dayHour(1, 9) });
    expect(outcomes[1]).toMatchObject({ status: "refused", message: "This memory tracker is not a spelling tracker" });
    expect((await log(learner, normal!.id)).map((r) => r.kind)).toEqual(["assimilation"]);
  });

  test("an online answer with an Idempotency-Key is not counted again when the same answer is synced", async () => {
    const { learner, trackerId } = await learnerWithTracker();
    await travelTo(learner, 1, 9);
    const idempotencyKey = key();
    const online = await learner.request("PATCH", `/api/memory-trackers/${trackerId}/mark-as-repeated?successful=true`, {
      headers: { "idempotency-key": idempotencyKey },
    });
    expect(online.status).toBe(200);
    // The reply was lost: the browser queued the answer and syncs it later.
    await travelTo(learner, 1, 12);
    const [outcome] = (await sync(learner, [review(trackerId, dayHour(1, 9), true, idempotencyKey)])).body.outcomes;
    expect(outcome).toMatchObject({ status: "applied", correct: true, reviewedAt: dayHour(1, 9) });
    expect(await log(learner, trackerId)).toHaveLength(2);
    // The same key online again is refused before anything changes.
    const repeated = await learner.request("PATCH", `/api/memory-trackers/${trackerId}/mark-as-repeated?successful=true`, {
      headers: { "idempotency-key": idempotencyKey },
    });
    expect(repeated.status).toBe(400);
    expect(
      (
        await learner.request("PATCH", `/api/memory-trackers/${trackerId}/mark-as-repeated?successful=true`, {
          headers: { "idempotency-key": "no spaces allowed" },
        })
      ).status,
    ).toBe(400);
    expect(await log(learner, trackerId)).toHaveLength(2);
  });

  test("the sync asks for a session first, then validates the batch with limits", async () => {
    const anonymous = server.client();
    expect((await sync(anonymous, [{ nonsense: true }])).status).toBe(401);
    const { learner, trackerId } = await learnerWithTracker();
    const tooMany = Array.from({ length: 101 }, () => review(trackerId, dayHour(0, 9), true));
    expect((await sync(learner, tooMany)).status).toBe(400);
    expect((await sync(learner, [{ ...review(trackerId, dayHour(0, 9), true), idempotencyKey: "short" }])).status).toBe(400);
    expect((await sync(learner, [{ ...review(trackerId, dayHour(0, 9), true), answer: { type: "wish" } }])).status).toBe(400);
    expect((await sync(learner, [review(trackerId, "yesterday-ish", true)])).status).toBe(400);
    expect((await sync(learner, [{ ...review(trackerId, dayHour(0, 9), true), thinkingTimeMs: -1 }])).status).toBe(400);
    expect(await log(learner, trackerId)).toHaveLength(1);
  });

  test("the offline pack: today's list with each item's note (and ancestors), spelling question or self-review", async () => {
    const learner = await server.client().loginAs("old_learner");
    await travelTo(learner, 0, 8);
    const ids = await injectNotes(learner, [
      { Title: "Words" },
      { Title: "sedition", Details: "inciting people to rebel", "Parent Title": "Words" },
    ]);
    await learner.post(`/api/notes/${ids.sedition}/review-setting`, { rememberSpelling: true });
    await assimilate(learner, ids.sedition!);
    const pack = (await learner.get("/api/recalls/offline-pack?timezone=UTC")).body;
    expect(pack.toRepeat).toHaveLength(2);
    const kinds = pack.items.map((item: OfflineItemJson) => item.kind).sort();
    expect(kinds).toEqual(["self-review", "spelling"]);
    const spelling = pack.items.find((item: OfflineItemJson) => item.kind === "spelling");
    expect(spelling.spellingQuestion.stem).toContain("inciting people to rebel");
    expect(spelling.spellingQuestion.stem).not.toContain("sedition");
    expect(spelling.note.noteTopology.titleOrPredicate).toBe("sedition");
    expect(spelling.note.noteTopology.parentOrSubjectNoteTopology.titleOrPredicate).toBe("Words");
    expect((await server.client().get("/api/recalls/offline-pack?timezone=UTC")).status).toBe(401);
  });
});

describe("multiple-choice answers given offline", () => {
  const world = useRecallPromptWorld();

  test("the pack carries a generated question with its correct index; one not generated yet needs the AI", async () => {
    const spain = (await assimilate(world.learner, world.ids.Spain!))[0]!.id;
    scriptGoodQuestion(world.fake);
    const prompt = (await world.ask()).body;
    const pack = (await world.learner.get("/api/recalls/offline-pack?timezone=UTC")).body;
    const byTracker = new Map(pack.items.map((item: OfflineItemJson) => [item.memoryTrackerId, item]));
    expect(byTracker.get(world.trackerId)).toMatchObject({ kind: "multiple-choice", prompt: { id: prompt.id }, correctChoiceIndex: 0 });
    expect(byTracker.get(spain)).toMatchObject({ kind: "needs-ai" });
  });

  test("a choice given offline answers the question at its moment; the same question answered elsewhere first is reported", async () => {
    scriptGoodQuestion(world.fake);
    const prompt = (await world.ask()).body;
    await travelTo(world.learner, 1, 15);
    const choice = (choiceIndex: number, answeredAt: string) => ({
      idempotencyKey: key(),
      memoryTrackerId: world.trackerId,
      answeredAt,
      answer: { type: "multiple-choice", recallPromptId: prompt.id, choiceIndex },
    });
    const [wrong] = (await sync(world.learner, [choice(1, dayHour(1, 9))])).body.outcomes;
    expect(wrong).toMatchObject({ status: "applied", correct: false, reviewedAt: dayHour(1, 9) });
    const answered = (await world.learner.get(`/api/recall-prompts/${prompt.id}`)).body;
    expect(answered.answer).toMatchObject({ choiceIndex: 1, correct: false });
    const [rows] = [await log(world.learner, world.trackerId)];
    expect(rows[0]).toMatchObject({ kind: "multiple-choice", outcome: "failure", reviewedAt: dayHour(1, 9) });
    // Another device answered the same question: the second answer does not count.
    const [second] = (await sync(world.learner, [choice(0, dayHour(1, 10))])).body.outcomes;
    expect(second.status).toBe("answered-later");
    const [outOfRange] = (await sync(world.learner, [{ ...choice(9, dayHour(1, 11)), memoryTrackerId: world.trackerId }])).body.outcomes;
    expect(outOfRange.status).not.toBe("applied");
    expect(await log(world.learner, world.trackerId)).toHaveLength(2);
  });
});
