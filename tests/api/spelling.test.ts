import { beforeEach, describe, expect, test } from "bun:test";
import { assimilate, dayHour, travelTo } from "../support/learning";
import { injectNotes } from "../support/notes";
import { type HttpClient, useTestServer } from "../support/server";

const FULL = "<mark title='Hidden text that is matching the answer'>[...]</mark>";
const PRONUNCIATION = "<mark title='Hidden pronunciation'>/.../</mark>";

describe("spelling questions and answers", () => {
  const server = useTestServer();
  let learner: HttpClient;
  beforeEach(async () => {
    learner = await server.client().loginAs("old_learner");
    await travelTo(learner, 0, 8);
  });

  /** Assimilates a note that remembers spelling; answers its spelling tracker's id (the normal one comes first). */
  async function spellingTrackerOf(noteId: number): Promise<{ normal: number; spelling: number }> {
    const setting = await learner.post(`/api/notes/${noteId}/review-setting`, { rememberSpelling: true });
    expect(setting.status).toBe(200);
    const trackers = await assimilate(learner, noteId);
    expect(trackers.map((t) => t.spelling)).toEqual([false, true]);
    return { normal: trackers[0]!.id, spelling: trackers[1]!.id };
  }

  const tracker = async (id: number) => (await learner.get(`/api/memory-trackers/${id}`)).body;

  test("the stem is the details as HTML, and the notebook comes with it", async () => {
    const ids = await injectNotes(learner, [{ Title: "moon", Details: "partner of earth" }]);
    const { spelling } = await spellingTrackerOf(ids.moon);
    const question = await learner.get(`/api/memory-trackers/${spelling}/spelling-question`);
    expect(question.status).toBe(200);
    expect(question.body.stem).toBe("<p>partner of earth</p>\n");
    const realm = (await learner.get(`/api/notes/${ids.moon}`)).body;
    expect(question.body.notebook).toEqual(realm.notebook);
    expect(question.body.notebook).toMatchObject({ title: "moon", headNoteId: ids.moon });
  });

  test("the title and pronunciations are hidden in the stem, inside Markdown formatting too", async () => {
    const ids = await injectNotes(learner, [
      { Title: "moon" },
      { Title: "sun", Details: "The **sun** is a star, /sʌn/, costs $1", "Parent Title": "moon" },
    ]);
    const { spelling } = await spellingTrackerOf(ids.sun);
    const stem = (await learner.get(`/api/memory-trackers/${spelling}/spelling-question`)).body.stem;
    expect(stem).toBe(`<p>The <strong>${FULL}</strong> is a star, ${PRONUNCIATION}, costs $1</p>\n`);
  });

  test("raw HTML in the details is sanitized before it reaches the stem", async () => {
    const ids = await injectNotes(learner, [{ Title: "moon", Details: "a moon <script>alert(1)</script><img src=x onerror=alert(1)>" }]);
    const { spelling } = await spellingTrackerOf(ids.moon);
    const stem: string = (await learner.get(`/api/memory-trackers/${spelling}/spelling-question`)).body.stem;
    expect(stem).toContain(`a ${FULL}`);
    expect(stem).not.toContain("<script");
    expect(stem).not.toContain("onerror");
  });

  test("blank details give an empty stem", async () => {
    const ids = await injectNotes(learner, [{ Title: "empty" }]);
    const { spelling } = await spellingTrackerOf(ids.empty);
    expect((await learner.get(`/api/memory-trackers/${spelling}/spelling-question`)).body.stem).toBe("");
  });

  test("a right answer repeats the spelling tracker successfully, and leaves the normal one alone", async () => {
    const ids = await injectNotes(learner, [{ Title: "moon", Details: "partner of earth" }]);
    const { normal, spelling } = await spellingTrackerOf(ids.moon);
    const result = await learner.post(`/api/memory-trackers/${spelling}/answer-spelling`, { spellingAnswer: " Moon " });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ isCorrect: true, answer: " Moon " });
    expect(result.body.note).toMatchObject({ id: ids.moon, details: "partner of earth", noteTopology: { titleOrPredicate: "moon" } });
    expect(await tracker(spelling)).toMatchObject({ forgettingCurveIndex: 110, repetitionCount: 1, nextRecallAt: dayHour(1, 8) });
    expect(await tracker(normal)).toMatchObject({ forgettingCurveIndex: 100, repetitionCount: 0, nextRecallAt: dayHour(0, 8) });
  });

  test("a wrong answer repeats the spelling tracker as a failure: due again in 12 hours", async () => {
    const ids = await injectNotes(learner, [{ Title: "moon", Details: "partner of earth" }]);
    const { normal, spelling } = await spellingTrackerOf(ids.moon);
    await learner.post(`/api/memory-trackers/${spelling}/answer-spelling`, { spellingAnswer: "moon" });
    const result = await learner.post(`/api/memory-trackers/${spelling}/answer-spelling`, { spellingAnswer: "mon" });
    expect(result.body).toMatchObject({ isCorrect: false, answer: "mon", note: { id: ids.moon } });
    expect(await tracker(spelling)).toMatchObject({ forgettingCurveIndex: 100, repetitionCount: 2, nextRecallAt: dayHour(0, 20) });
    expect((await tracker(normal)).repetitionCount).toBe(0);
  });

  test("a fragment of the title is a right answer, and the note comes with its ancestors for the breadcrumb", async () => {
    const ids = await injectNotes(learner, [{ Title: "Animals" }, { Title: "cat / kitty (animal)", "Parent Title": "Animals" }]);
    const { spelling } = await spellingTrackerOf(ids["cat / kitty (animal)"]);
    const result = (await learner.post(`/api/memory-trackers/${spelling}/answer-spelling`, { spellingAnswer: "Kitty" })).body;
    expect(result.isCorrect).toBe(true);
    expect(result.note.noteTopology.parentOrSubjectNoteTopology).toMatchObject({ id: ids.Animals, titleOrPredicate: "Animals" });
  });

  test("a blank or missing answer is refused with 400 and does not touch the tracker", async () => {
    const ids = await injectNotes(learner, [{ Title: "moon" }]);
    const { spelling } = await spellingTrackerOf(ids.moon);
    for (const body of [{ spellingAnswer: "  " }, { spellingAnswer: "" }, { spellingAnswer: null }, {}]) {
      const result = await learner.post(`/api/memory-trackers/${spelling}/answer-spelling`, body);
      expect(result.status).toBe(400);
      expect(result.body.errors).toEqual({ spellingAnswer: "must not be blank" });
    }
    expect(await tracker(spelling)).toMatchObject({ repetitionCount: 0, forgettingCurveIndex: 100 });
  });

  test("trackers belong to one user: another user gets 403, an unknown tracker 404, a visitor 401", async () => {
    const ids = await injectNotes(learner, [{ Title: "moon", Details: "partner of earth" }]);
    const { spelling } = await spellingTrackerOf(ids.moon);
    const other = await server.client().loginAs("another_old_learner");
    expect((await other.get(`/api/memory-trackers/${spelling}/spelling-question`)).status).toBe(403);
    expect((await other.post(`/api/memory-trackers/${spelling}/answer-spelling`, { spellingAnswer: "moon" })).status).toBe(403);
    expect(await tracker(spelling)).toMatchObject({ repetitionCount: 0 });
    expect((await learner.get("/api/memory-trackers/99999/spelling-question")).status).toBe(404);
    expect((await learner.post("/api/memory-trackers/99999/answer-spelling", { spellingAnswer: "moon" })).status).toBe(404);
    expect((await server.client().get(`/api/memory-trackers/${spelling}/spelling-question`)).status).toBe(401);
  });
});
