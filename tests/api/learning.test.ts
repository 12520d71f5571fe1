import { beforeEach, describe, expect, test } from "bun:test";
import { assimilate, assimilatingTitles, dayHour, recallingTitles, travelTo } from "../support/learning";
import { injectNotes } from "../support/notes";
import { type HttpClient, useTestServer } from "../support/server";

/** What a recent-trackers row is read for here. */
type TrackerTitle = { note: { noteTopology: { titleOrPredicate: string } } };

describe("the learning loop: assimilation and recall", () => {
  const server = useTestServer();
  let learner: HttpClient;
  beforeEach(async () => {
    learner = await server.client().loginAs("old_learner");
  });

  test("assimilating creates a tracker due at once with the default intervals", async () => {
    await travelTo(learner, 0, 8);
    const ids = await injectNotes(learner, [{ Title: "Sedition" }]);
    expect(await assimilatingTitles(learner)).toEqual(["Sedition"]);
    const [tracker] = await assimilate(learner, ids.Sedition);
    expect(tracker).toMatchObject({ spelling: false, repetitionCount: 0, forgettingCurveIndex: 100, removedFromTracking: false });
    expect(tracker!.nextRecallAt).toBe(dayHour(0, 8));
    expect(await recallingTitles(learner)).toEqual(["Sedition"]);
    const count = (await learner.get("/api/assimilation/count?timezone=UTC")).body;
    expect(count).toEqual({ dueCount: 0, assimilatedCountOfTheDay: 1, totalUnassimilatedCount: 0 });
  });

  test("the 8-day schedule with intervals 1, 2, 4, 8: one new note a day, note 1 is recalled on days 2, 4 and 8", async () => {
    await learner.post("/api/testability/update_current_user", { daily_assimilation_count: "1", space_intervals: "1, 2, 4, 8" });
    await travelTo(learner, 0);
    await injectNotes(
      learner,
      Array.from({ length: 8 }, (_, i) => ({ Title: `Note ${i + 1}`, "Parent Title": i === 0 ? "" : "Note 1", Details: "to learn" })),
    );
    const recalledOn: Record<string, number[]> = {};
    for (let day = 1; day <= 8; day++) {
      await travelTo(learner, day);
      for (const title of await recallingTitles(learner)) {
        recalledOn[title] = [...(recalledOn[title] ?? []), day];
        const list = (await learner.get("/api/recalls/recalling?timezone=UTC")).body.toRepeat;
        await learner.patch(`/api/memory-trackers/${list[0].memoryTrackerId}/mark-as-repeated?successful=true`);
      }
      const [next] = (await learner.get("/api/assimilation/assimilating?timezone=UTC")).body;
      if (next) await assimilate(learner, next.id);
    }
    expect(recalledOn["Note 1"]).toEqual([2, 4, 8]);
    expect(recalledOn["Note 2"]).toEqual([3, 5]);
  });

  test("a notebook's notes are offered before the links between them, and an empty head note last", async () => {
    await learner.post("/api/testability/update_current_user", { daily_assimilation_count: "10" });
    const ids = await injectNotes(learner, [
      { Title: "Biology" },
      { Title: "Ribosome", "Parent Title": "Biology" },
      { Title: "RNA", "Parent Title": "Biology" },
      { Title: "Chemistry", Details: "The study of matter" },
    ]);
    await learner.post("/api/testability/link_notes", { type: "using", source_id: String(ids.Ribosome), target_id: String(ids.RNA) });
    await injectNotes(learner, [{ Title: "Enzyme", "Parent Title": "Biology" }]);
    expect(await assimilatingTitles(learner)).toEqual(["Ribosome", "RNA", "Chemistry", "Enzyme", "using", "Biology"]);
    expect((await learner.get("/api/assimilation/count?timezone=UTC")).body.dueCount).toBe(6);
  });

  test("the daily quota: a note assimilated earlier the same day blocks more, the next day resets it", async () => {
    await learner.post("/api/testability/update_current_user", { daily_assimilation_count: "1" });
    const ids = await injectNotes(learner, [{ Title: "One" }, { Title: "Two" }]);
    await travelTo(learner, 1, 1);
    await assimilate(learner, ids.One);
    await travelTo(learner, 1, 23);
    expect(await assimilatingTitles(learner)).toEqual([]);
    expect((await learner.get("/api/assimilation/count?timezone=UTC")).body.dueCount).toBe(0);
    await travelTo(learner, 2, 1);
    expect(await assimilatingTitles(learner)).toEqual(["Two"]);
  });

  test("'today' is the user's local day: 23:00 in Shanghai is still blocked, 01:00 the next day is not", async () => {
    await learner.post("/api/testability/update_current_user", { daily_assimilation_count: "1" });
    const ids = await injectNotes(learner, [{ Title: "One" }, { Title: "Two" }]);
    await travelTo(learner, 1, 1); // 09:00 in Shanghai
    await assimilate(learner, ids.One);
    await travelTo(learner, 1, 15); // 23:00 in Shanghai
    expect((await learner.get("/api/assimilation/assimilating?timezone=Asia/Shanghai")).body).toEqual([]);
    await travelTo(learner, 1, 17); // 01:00 the next day in Shanghai
    expect((await learner.get("/api/assimilation/assimilating?timezone=Asia/Shanghai")).body).toHaveLength(1);
    expect(await assimilatingTitles(learner)).toEqual([]);
  });

  test("skipping does not use the quota and keeps the note out for good", async () => {
    await learner.post("/api/testability/update_current_user", { daily_assimilation_count: "1" });
    const ids = await injectNotes(learner, [{ Title: "Skipped" }, { Title: "Kept" }]);
    await travelTo(learner, 1);
    const [tracker] = await assimilate(learner, ids.Skipped, true);
    expect(tracker!.removedFromTracking).toBe(true);
    expect(await assimilatingTitles(learner)).toEqual(["Kept"]);
    expect(await recallingTitles(learner)).toEqual([]);
  });

  test("the inject_notes hook's Skip Memory Tracking keeps a note out of assimilation", async () => {
    await learner.post("/api/testability/inject_notes", {
      externalIdentifier: "",
      circleName: null,
      noteTestData: [{ Title: "Kept" }, { Title: "Skipped", "Parent Title": "Kept", "Skip Memory Tracking": "true" }],
    });
    expect(await assimilatingTitles(learner)).toEqual(["Kept"]);
  });

  test("lower levels come first, then creation order", async () => {
    const ids = await injectNotes(learner, [{ Title: "hard" }, { Title: "easy" }]);
    expect(await assimilatingTitles(learner)).toEqual(["hard", "easy"]);
    expect((await learner.post(`/api/notes/${ids.hard}/review-setting`, { level: 2 })).body).toEqual({ noteId: ids.hard });
    expect(await assimilatingTitles(learner)).toEqual(["easy", "hard"]);
    expect((await learner.post(`/api/notes/${ids.hard}/review-setting`, { level: 7 })).body.errors.level).toBe("must be from 0 to 6");
  });

  test("a note that remembers spelling gets a spelling tracker too, counted twice today", async () => {
    const ids = await injectNotes(learner, [{ Title: "moon", Details: "partner of earth" }]);
    await learner.post(`/api/notes/${ids.moon}/review-setting`, { rememberSpelling: true, level: 0, skipMemoryTracking: false });
    const trackers = await assimilate(learner, ids.moon);
    expect(trackers.map((t) => t.spelling)).toEqual([false, true]);
    expect((await learner.get("/api/assimilation/count?timezone=UTC")).body.assimilatedCountOfTheDay).toBe(2);
    expect(await recallingTitles(learner)).toEqual(["moon", "moon (spelling)"]);
  });

  test("assimilating twice is refused with 400 and counts once", async () => {
    const ids = await injectNotes(learner, [{ Title: "Once" }]);
    await assimilate(learner, ids.Once);
    const again = await learner.post("/api/assimilation", { noteId: ids.Once });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe("This note is already assimilated");
    expect((await learner.get("/api/assimilation/count?timezone=UTC")).body.assimilatedCountOfTheDay).toBe(1);
  });

  test("skip-memory-tracking notes and deleted notes are not offered or recalled", async () => {
    const ids = await injectNotes(learner, [
      { Title: "Root" },
      { Title: "Gone", "Parent Title": "Root" },
      { Title: "Quiet", "Parent Title": "Root" },
    ]);
    await assimilate(learner, ids.Gone);
    await learner.post(`/api/notes/${ids.Quiet}/review-setting`, { skipMemoryTracking: true });
    await learner.post(`/api/notes/${ids.Gone}/delete`);
    expect(await assimilatingTitles(learner)).toEqual(["Root"]);
    expect(await recallingTitles(learner)).toEqual([]);
  });

  test("the recall window reaches the end of the half-day, and load more looks days ahead", async () => {
    await learner.post("/api/testability/update_current_user", { space_intervals: "1, 2, 4, 8" });
    const ids = await injectNotes(learner, [{ Title: "Tomorrow" }]);
    await travelTo(learner, 0, 8);
    await assimilate(learner, ids.Tomorrow);
    expect(await recallingTitles(learner)).toEqual([]);
    expect(await recallingTitles(learner, 3)).toEqual(["Tomorrow"]);
    const list = (await learner.get("/api/recalls/recalling?timezone=UTC&dueindays=3")).body;
    expect(list).toMatchObject({ dueInDays: 3, toRepeatCount: 0, totalAssimilatedCount: 1, recallWindowEndAt: dayHour(1, 8) });
    await travelTo(learner, 1, 7);
    expect(await recallingTitles(learner)).toEqual(["Tomorrow"]);
    const overview = (await learner.get("/api/recalls/overview?timezone=UTC")).body;
    expect(overview).toEqual({ toRepeatCount: 1, totalAssimilatedCount: 1, recallWindowEndAt: dayHour(2, 7) });
  });

  test("mark as repeated, self-evaluate and remove from tracking", async () => {
    const ids = await injectNotes(learner, [{ Title: "Tracked" }]);
    await travelTo(learner, 0, 8);
    const [tracker] = await assimilate(learner, ids.Tracked);
    const repeated = (await learner.patch(`/api/memory-trackers/${tracker!.id}/mark-as-repeated?successful=true`)).body;
    expect(repeated).toMatchObject({ forgettingCurveIndex: 110, repetitionCount: 1, nextRecallAt: dayHour(1, 8) });
    const failed = (await learner.patch(`/api/memory-trackers/${tracker!.id}/mark-as-repeated?successful=false`)).body;
    expect(failed).toMatchObject({ forgettingCurveIndex: 100, repetitionCount: 2, nextRecallAt: dayHour(0, 20) });
    const happy = (await learner.post(`/api/memory-trackers/${tracker!.id}/self-evaluate`, { adjustment: 5 })).body;
    expect(happy).toMatchObject({ forgettingCurveIndex: 105, repetitionCount: 2 });
    const removed = (await learner.post(`/api/memory-trackers/${tracker!.id}/remove`)).body;
    expect(removed.removedFromTracking).toBe(true);
    expect(await recallingTitles(learner, 14)).toEqual([]);
    const info = (await learner.get(`/api/notes/${ids.Tracked}/note-info`)).body;
    expect(info.memoryTrackers).toEqual([]);
    expect(info.recallSetting).toEqual({ level: 0, rememberSpelling: false, skipMemoryTracking: false });
    expect(info.note.id).toBe(ids.Tracked);
    expect(await assimilatingTitles(learner)).toEqual([]);
  });

  test("recent lists: learned by assimilation time, reviewed by last recall, removed ones included", async () => {
    const ids = await injectNotes(learner, [{ Title: "First" }, { Title: "Second" }]);
    await travelTo(learner, 0);
    const [first] = await assimilate(learner, ids.First);
    await travelTo(learner, 1);
    await assimilate(learner, ids.Second);
    await travelTo(learner, 2);
    await learner.patch(`/api/memory-trackers/${first!.id}/mark-as-repeated?successful=true`);
    const learned = (await learner.get("/api/memory-trackers/recent")).body;
    expect(learned.map((t: TrackerTitle) => t.note.noteTopology.titleOrPredicate)).toEqual(["Second", "First"]);
    const reviewed = (await learner.get("/api/memory-trackers/recently-reviewed")).body;
    expect(reviewed.map((t: TrackerTitle) => t.note.noteTopology.titleOrPredicate)).toEqual(["First", "Second"]);
  });

  test("trackers belong to one user, and bad input is refused", async () => {
    const ids = await injectNotes(learner, [{ Title: "Mine" }]);
    const [tracker] = await assimilate(learner, ids.Mine);
    const other = await server.client().loginAs("another_old_learner");
    expect((await other.get(`/api/memory-trackers/${tracker!.id}`)).status).toBe(403);
    expect((await other.patch(`/api/memory-trackers/${tracker!.id}/mark-as-repeated?successful=true`)).status).toBe(403);
    expect((await other.post(`/api/memory-trackers/${tracker!.id}/self-evaluate`, { adjustment: 5 })).status).toBe(403);
    expect((await other.post(`/api/memory-trackers/${tracker!.id}/remove`)).status).toBe(403);
    expect((await other.post("/api/assimilation", { noteId: ids.Mine })).status).toBe(403);
    expect((await other.get(`/api/notes/${ids.Mine}/note-info`)).status).toBe(403);
    expect((await other.post(`/api/notes/${ids.Mine}/review-setting`, { level: 1 })).status).toBe(403);
    expect((await learner.get("/api/memory-trackers/99999")).status).toBe(404);
    expect((await learner.get("/api/recalls/recalling?timezone=Mars/Base")).body.errors.timezone).toBeDefined();
    expect((await learner.get("/api/assimilation/count")).status).toBe(400);
    expect((await server.client().get("/api/recalls/overview?timezone=UTC")).status).toBe(401);
  });
});
