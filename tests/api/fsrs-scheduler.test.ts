import { describe, expect, test } from "bun:test";
import { assimilate, dayHour, recallingTitles, travelTo } from "../support/learning";
import { injectNotes } from "../support/notes";
import { queuedBehindRow } from "../support/row-lock";
import { type HttpClient, useTestServer } from "../support/server";

async function me(client: HttpClient) {
  return (await client.get("/api/user")).body;
}
async function setScheduler(client: HttpClient, changes: Record<string, unknown>) {
  const user = await me(client);
  return client.patch(`/api/user/${user.id}`, { name: user.name, ...changes });
}

describe("FSRS as a per-user scheduler", () => {
  const server = useTestServer();

  test("the settings: defaults, answered by GET /api/user and current-user-info, 400 field errors on bad values", async () => {
    const learner = await server.client().loginAs("old_learner");
    expect(await me(learner)).toMatchObject({ scheduler: "forgetting-curve", desiredRetention: 0.9, maximumIntervalDays: 36500 });
    const bad = await setScheduler(learner, { scheduler: "sm2", desiredRetention: 0.99, maximumIntervalDays: 1.5 });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors).sort()).toEqual(["desiredRetention", "maximumIntervalDays", "scheduler"]);
    expect((await setScheduler(learner, { desiredRetention: "0.9" })).status).toBe(400);
    expect((await setScheduler(learner, { maximumIntervalDays: 0 })).status).toBe(400);
    const ok = await setScheduler(learner, { scheduler: "fsrs", desiredRetention: 0.85, maximumIntervalDays: 365 });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ scheduler: "fsrs", desiredRetention: 0.85, maximumIntervalDays: 365 });
    expect((await learner.get("/api/user/current-user-info")).body.user).toMatchObject({ scheduler: "fsrs", desiredRetention: 0.85 });
    // Another user's settings stay theirs.
    const other = await server.client().loginAs("another_old_learner");
    const mine = await me(learner);
    expect((await other.patch(`/api/user/${mine.id}`, { name: "x", scheduler: "fsrs" })).status).toBe(403);
    expect((await me(other)).scheduler).toBe("forgetting-curve");
  });

  test("an FSRS user's assimilation is a first Good review; recalls use FSRS, the tracker shows stability and difficulty", async () => {
    const learner = await server.client().loginAs("old_learner");
    await setScheduler(learner, { scheduler: "fsrs" });
    await travelTo(learner, 0, 8);
    const ids = await injectNotes(learner, [{ Title: "Sedition" }]);
    const [tracker] = await assimilate(learner, ids.Sedition);
    expect(tracker).toMatchObject({ nextRecallAt: dayHour(2, 15), stability: 55.356, forgettingCurveIndex: 133 });
    expect(tracker!.difficulty).toBeCloseTo(2.118, 3);
    expect(await recallingTitles(learner)).toEqual([]);
    await travelTo(learner, 2, 15);
    const repeated = (await learner.patch(`/api/memory-trackers/${tracker!.id}/mark-as-repeated?successful=true`)).body;
    expect(repeated.repetitionCount).toBe(1);
    expect(repeated.stability).toBeGreaterThan(55.356 * 3);
    // The statistics page shows the FSRS spreads: stability ×3 and more, and recall probability today.
    const page = (await learner.get("/d/stats")).text;
    expect(page).toContain("1–4 weeks: 1");
    expect(page).toContain("95 % and more: 1");
    await travelTo(learner, 40, 15);
    expect((await learner.get("/d/stats")).text).toMatch(/(under 70|70–80|80–90) %: 1/);
    await travelTo(learner, 2, 15);
    const log = (await learner.get(`/api/recall-log?memoryTracker=${tracker!.id}`)).body;
    expect(log[0]).toMatchObject({
      kind: "self-review",
      outcome: "success",
      scheduledHours: 55,
      elapsedHours: 55,
      stateBefore: { scheduler: "fsrs", stability: 55.356 },
      stateAfter: { scheduler: "fsrs", stability: repeated.stability },
    });
  });

  test("switching to FSRS and back keeps every due date: no surprise pile of due notes", async () => {
    const learner = await server.client().loginAs("old_learner");
    await travelTo(learner, 0, 8);
    const titles = Array.from({ length: 6 }, (_, i) => `Note ${i + 1}`);
    const ids = await injectNotes(
      learner,
      titles.map((Title) => ({ Title })),
    );
    const trackers = [];
    for (const title of titles) trackers.push((await assimilate(learner, ids[title]!))[0]!);
    // Give them different histories on the classic scheduler.
    for (const [i, tracker] of trackers.entries()) {
      for (let k = 0; k <= i; k++) await learner.patch(`/api/memory-trackers/${tracker.id}/mark-as-repeated?successful=${k !== 2}`);
    }
    await travelTo(learner, 1, 8);
    const before = await Promise.all(trackers.map(async (t) => (await learner.get(`/api/memory-trackers/${t.id}`)).body));
    const dueBefore = await recallingTitles(learner, 3);

    expect((await setScheduler(learner, { scheduler: "fsrs" })).status).toBe(200);
    const onFsrs = await Promise.all(trackers.map(async (t) => (await learner.get(`/api/memory-trackers/${t.id}`)).body));
    expect(onFsrs.map((t) => t.nextRecallAt)).toEqual(before.map((t) => t.nextRecallAt));
    for (const t of onFsrs) {
      expect(t.stability).toBeGreaterThan(0);
      expect(t.difficulty).toBeGreaterThanOrEqual(1);
    }
    expect(await recallingTitles(learner, 3)).toEqual(dueBefore);
    // The one with a failure in its history is harder than one without.
    expect(onFsrs[5].difficulty).toBeGreaterThan(onFsrs[1].difficulty);

    // Saving the same scheduler again converts nothing.
    await setScheduler(learner, { scheduler: "fsrs" });
    expect((await learner.get(`/api/memory-trackers/${trackers[3]!.id}`)).body.stability).toBe(onFsrs[3].stability);

    expect((await setScheduler(learner, { scheduler: "forgetting-curve" })).status).toBe(200);
    const back = await Promise.all(trackers.map(async (t) => (await learner.get(`/api/memory-trackers/${t.id}`)).body));
    expect(back.map((t) => t.nextRecallAt)).toEqual(before.map((t) => t.nextRecallAt));
    // Each index comes back, except that an interval of 0 (index 100 after a failure) became FSRS's
    // few hours for a lapse, read back as the index of those hours.
    expect(before[2].forgettingCurveIndex).toBe(100);
    expect(back.map((t, i) => (i === 2 ? 100 : t.forgettingCurveIndex))).toEqual(before.map((t) => t.forgettingCurveIndex));
    expect(back[2].forgettingCurveIndex).toBeLessThan(105);
    for (const t of back) expect(t.stability).toBeUndefined();
    expect(await recallingTitles(learner, 3)).toEqual(dueBefore);
  });

  test("a switch to FSRS and one back asked at once leave every tracker on the scheduler the user ends with", async () => {
    const learner = await server.client().loginAs("old_learner");
    await travelTo(learner, 0, 8);
    const ids = await injectNotes(learner, [{ Title: "Alpha" }, { Title: "Beta" }]);
    const trackers = [...(await assimilate(learner, ids.Alpha!)), ...(await assimilate(learner, ids.Beta!))];
    const { id: userId } = await me(learner);
    // Both read the classic scheduler before either saves: the first converts, the second not.
    const [toFsrs, back] = await queuedBehindRow(server, "users", userId, [
      () => setScheduler(learner, { scheduler: "fsrs" }),
      () => setScheduler(learner, { scheduler: "forgetting-curve" }),
    ]);
    expect([toFsrs!.status, back!.status]).toEqual([200, 200]);
    expect((await me(learner)).scheduler).toBe("forgetting-curve");
    for (const t of trackers) expect((await learner.get(`/api/memory-trackers/${t.id}`)).body.stability).toBeUndefined();
  });
});

describe("Optimize my parameters", () => {
  const server = useTestServer();

  test("needs 400 logged reviews; then fits on the user's log and reports held-out log loss, never keeping a worse fit", async () => {
    const learner = await server.client().loginAs("old_learner");
    await setScheduler(learner, { scheduler: "fsrs" });
    await travelTo(learner, 0, 8);
    const titles = Array.from({ length: 50 }, (_, i) => `Fact ${i + 1}`);
    const ids = await injectNotes(
      learner,
      titles.map((Title) => ({ Title })),
    );
    const trackers: number[] = [];
    for (const title of titles) trackers.push((await assimilate(learner, ids[title]!))[0]!.id);
    const tooFew = await learner.post("/api/user/optimize-fsrs-parameters", {});
    expect(tooFew.status).toBe(400);
    expect(tooFew.body.errors.reviews).toBe("needs at least 400 logged reviews; you have 0 so far");
    // Nine rounds of recalls a few days apart: easy facts are remembered, every seventh is not.
    for (let round = 1; round <= 9; round++) {
      await travelTo(learner, round * 3, 8);
      for (const [i, id] of trackers.entries()) {
        await learner.patch(`/api/memory-trackers/${id}/mark-as-repeated?successful=${(i + round) % 7 !== 0}`);
      }
    }
    const result = await learner.post("/api/user/optimize-fsrs-parameters", {});
    expect(result.status).toBe(200);
    expect(result.body.reviews).toBe(450);
    expect(result.body.heldOutReviews).toBe(90);
    expect(result.body.kept === "fitted").toBe(result.body.logLossAfter < result.body.logLossBefore);
    expect((await server.client().post("/api/user/optimize-fsrs-parameters", {})).status).toBe(401);
  }, 30_000); // about 500 API calls and a fit: 2 s here, more on a busy machine
});
