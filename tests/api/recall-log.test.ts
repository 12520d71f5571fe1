import { describe, expect, test } from "bun:test";
import type { RecallLogJson } from "../../src/services/memory/recall-log";
import { assimilate, dayHour, travelTo } from "../support/learning";
import { injectNotes } from "../support/notes";
import { scriptGoodQuestion, useRecallPromptWorld } from "../support/recall-prompts";
import { useTestServer } from "../support/server";

describe("the recall log: one row per review, written with the tracker update", () => {
  const server = useTestServer();

  test("assimilation, self-review (both ways), self-evaluation and spelling each write a row, newest first", async () => {
    const learner = await server.client().loginAs("old_learner");
    await travelTo(learner, 0, 8);
    const ids = await injectNotes(learner, [{ Title: "Sedition" }]);
    await learner.post(`/api/notes/${ids.Sedition}/review-setting`, { rememberSpelling: true });
    const [tracker, spelling] = await assimilate(learner, ids.Sedition);
    await travelTo(learner, 0, 9);
    await learner.patch(`/api/memory-trackers/${tracker!.id}/mark-as-repeated?successful=true`);
    await travelTo(learner, 1, 9);
    await learner.patch(`/api/memory-trackers/${tracker!.id}/mark-as-repeated?successful=false`);
    await learner.post(`/api/memory-trackers/${tracker!.id}/self-evaluate`, { adjustment: 5 });
    await learner.post(`/api/memory-trackers/${spelling!.id}/answer-spelling`, { spellingAnswer: "sedition" });

    const rows = (await learner.get(`/api/recall-log?memoryTracker=${tracker!.id}`)).body;
    expect(rows.map((r: RecallLogJson) => [r.kind, r.outcome])).toEqual([
      ["self-evaluation", "+5"],
      ["self-review", "failure"],
      ["self-review", "success"],
      ["assimilation", "success"],
    ]);
    const [evaluation, failure, success, assimilation] = rows;
    expect(assimilation).toMatchObject({
      memoryTrackerId: tracker!.id,
      reviewedAt: dayHour(0, 8),
      thinkingTimeMs: null,
      scheduledHours: null,
      elapsedHours: null,
      stateBefore: null,
      stateAfter: { scheduler: "forgetting-curve", forgettingCurveIndex: 100, repetitionCount: 0, nextRecallAt: dayHour(0, 8) },
    });
    expect(success).toMatchObject({
      reviewedAt: dayHour(0, 9),
      scheduledHours: 0,
      elapsedHours: 1,
      stateBefore: { forgettingCurveIndex: 100, repetitionCount: 0 },
      stateAfter: { forgettingCurveIndex: 110, repetitionCount: 1, lastRecalledAt: dayHour(0, 9), nextRecallAt: dayHour(1, 9) },
    });
    expect(failure).toMatchObject({
      reviewedAt: dayHour(1, 9),
      scheduledHours: 24,
      elapsedHours: 24,
      stateAfter: { forgettingCurveIndex: 100, repetitionCount: 2, nextRecallAt: dayHour(1, 21) },
    });
    expect(evaluation.stateAfter).toMatchObject({ forgettingCurveIndex: 105, repetitionCount: 2 });
    // The last row's state is the tracker's state: the schedule can be rebuilt from the log.
    const now = (await learner.get(`/api/memory-trackers/${tracker!.id}`)).body;
    expect(evaluation.stateAfter).toMatchObject({
      forgettingCurveIndex: now.forgettingCurveIndex,
      nextRecallAt: now.nextRecallAt,
      lastRecalledAt: now.lastRecalledAt,
    });
    expect(now.stability).toBeUndefined();

    const spellingRows = (await learner.get(`/api/recall-log?memoryTracker=${spelling!.id}`)).body;
    expect(spellingRows.map((r: RecallLogJson) => [r.kind, r.outcome])).toEqual([
      ["spelling", "success"],
      ["assimilation", "success"],
    ]);
    // All the user's rows, limited.
    expect((await learner.get("/api/recall-log?limit=2")).body.map((r: RecallLogJson) => r.kind)).toEqual(["spelling", "self-evaluation"]);
  });

  test("a skipped note writes no row; a rejected review writes none either", async () => {
    const learner = await server.client().loginAs("old_learner");
    const ids = await injectNotes(learner, [{ Title: "Skipped" }, { Title: "Kept" }]);
    const [skipped] = await assimilate(learner, ids.Skipped, true);
    expect((await learner.get(`/api/recall-log?memoryTracker=${skipped!.id}`)).body).toEqual([]);
    const [kept] = await assimilate(learner, ids.Kept);
    expect((await learner.post(`/api/memory-trackers/${kept!.id}/self-evaluate`, { adjustment: 500 })).status).toBe(400);
    expect((await learner.get(`/api/recall-log?memoryTracker=${kept!.id}`)).body).toHaveLength(1);
  });

  test("thinking time is logged when the browser sends it, and checked", async () => {
    const learner = await server.client().loginAs("old_learner");
    const ids = await injectNotes(learner, [{ Title: "Sedition" }]);
    await learner.post(`/api/notes/${ids.Sedition}/review-setting`, { rememberSpelling: true });
    const [tracker, spelling] = await assimilate(learner, ids.Sedition!);
    expect((await learner.patch(`/api/memory-trackers/${tracker!.id}/mark-as-repeated?successful=true&thinkingTimeMs=4200`)).status).toBe(
      200,
    );
    await learner.post(`/api/memory-trackers/${spelling!.id}/answer-spelling`, { spellingAnswer: "sedition", thinkingTimeMs: 1234 });
    const bad = await learner.patch(`/api/memory-trackers/${tracker!.id}/mark-as-repeated?successful=true&thinkingTimeMs=-1`);
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toHaveProperty("thinkingTimeMs");
    expect(
      (await learner.post(`/api/memory-trackers/${spelling!.id}/answer-spelling`, { spellingAnswer: "x", thinkingTimeMs: 1.5 })).status,
    ).toBe(400);
    const rows = (await learner.get("/api/recall-log")).body;
    expect(rows.map((r: RecallLogJson) => [r.kind, r.thinkingTimeMs])).toEqual([
      ["spelling", 1234],
      ["self-review", 4200],
      ["assimilation", null],
      ["assimilation", null],
    ]);
  });

  test("another user's tracker is refused, a missing one is 404, bad limits are 400, signed out is 401", async () => {
    const learner = await server.client().loginAs("old_learner");
    const ids = await injectNotes(learner, [{ Title: "Mine" }]);
    const [tracker] = await assimilate(learner, ids.Mine);
    const other = await server.client().loginAs("another_old_learner");
    expect((await other.get(`/api/recall-log?memoryTracker=${tracker!.id}`)).status).toBe(403);
    expect((await other.get("/api/recall-log")).body).toEqual([]);
    expect((await learner.get("/api/recall-log?memoryTracker=999999")).status).toBe(404);
    const bad = await learner.get("/api/recall-log?limit=0");
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toHaveProperty("limit");
    expect((await learner.get("/api/recall-log?limit=1001")).status).toBe(400);
    expect((await server.client().get("/api/recall-log?limit=0")).status).toBe(401);
  });
});

describe("the recall log of multiple-choice answers", () => {
  const w = useRecallPromptWorld();

  test("a right and a wrong answer are logged as multiple-choice success and failure", async () => {
    scriptGoodQuestion(w.fake);
    await w.learner.post(`/api/recall-prompts/${(await w.ask()).body.id}/answer`, { choiceIndex: 0 });
    await travelTo(w.learner, 2, 8);
    scriptGoodQuestion(w.fake);
    await w.learner.post(`/api/recall-prompts/${(await w.ask()).body.id}/answer`, { choiceIndex: 1 });
    const rows = (await w.learner.get(`/api/recall-log?memoryTracker=${w.trackerId}`)).body;
    expect(rows.map((r: RecallLogJson) => [r.kind, r.outcome, r.reviewedAt])).toEqual([
      ["multiple-choice", "failure", dayHour(2, 8)],
      ["multiple-choice", "success", dayHour(0, 8)],
      ["assimilation", "success", dayHour(0, 8)],
    ]);
  });
});
