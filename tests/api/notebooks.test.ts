import { beforeEach, describe, expect, test } from "bun:test";
import { injectNotes } from "../support/notes";
import { type HttpClient, useTestServer } from "../support/server";

describe("notebooks", () => {
  const server = useTestServer();
  let learner: HttpClient;
  beforeEach(async () => {
    learner = await server.client().loginAs("old_learner");
  });

  test("creating a notebook creates its head note and answers its id", async () => {
    const created = await learner.post("/api/notebooks/create", { newTitle: "Spanish" });
    expect(created.status).toBe(200);
    const realm = (await learner.get(`/api/notes/${created.body.noteId}`)).body;
    expect(realm.note.noteTopology.titleOrPredicate).toBe("Spanish");
    expect(realm.note.parentId).toBeNull();
    expect(realm.notebook).toMatchObject({ title: "Spanish", headNoteId: created.body.noteId, creatorId: "old_learner" });
    expect(realm.notebook.notebookSettings).toEqual({
      skipMemoryTrackingEntirely: false,
      numberOfQuestionsInAssessment: null,
      certificateExpiry: "1y",
    });
  });

  test("the notebooks list has the user's own notebooks, newest first, and subscriptions", async () => {
    await learner.post("/api/notebooks/create", { newTitle: "First" });
    await learner.post("/api/notebooks/create", { newTitle: "Second" });
    await (await server.client().loginAs("another_old_learner")).post("/api/notebooks/create", { newTitle: "Not mine" });
    const list = (await learner.get("/api/notebooks")).body;
    expect(list.notebooks.map((n: { title: string }) => n.title)).toEqual(["Second", "First"]);
    expect(list.subscriptions).toEqual([]);
  });

  test("a blank or too long title is refused with errors.newTitle", async () => {
    for (const newTitle of ["", "   ", "x".repeat(151)]) {
      const result = await learner.post("/api/notebooks/create", { newTitle });
      expect(result.status).toBe(400);
      expect(result.body.errors.newTitle).toBe("size must be between 1 and 150");
    }
    expect((await learner.get("/api/notebooks")).body.notebooks).toEqual([]);
  });

  test("settings are read and changed, and validated", async () => {
    const { noteId } = (await learner.post("/api/notebooks/create", { newTitle: "Maths" })).body;
    const notebookId = (await learner.get(`/api/notes/${noteId}`)).body.notebook.id;
    const changed = await learner.post(`/api/notebooks/${notebookId}`, {
      skipMemoryTrackingEntirely: true,
      numberOfQuestionsInAssessment: 5,
      certificateExpiry: "2y 6m",
    });
    expect(changed.status).toBe(200);
    expect((await learner.get(`/api/notebooks/${notebookId}`)).body.notebookSettings).toEqual({
      skipMemoryTrackingEntirely: true,
      numberOfQuestionsInAssessment: 5,
      certificateExpiry: "2y 6m",
    });
    const bad = await learner.post(`/api/notebooks/${notebookId}`, { certificateExpiry: "forever", numberOfQuestionsInAssessment: -2 });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors).sort()).toEqual(["certificateExpiry", "numberOfQuestionsInAssessment"]);
    for (const ok of ["1y", "1m", "10d", "1y 1m 1d"]) {
      expect((await learner.post(`/api/notebooks/${notebookId}`, { certificateExpiry: ok })).status).toBe(200);
    }
  });

  test("only the owner reads or changes a notebook", async () => {
    const { noteId } = (await learner.post("/api/notebooks/create", { newTitle: "Private" })).body;
    const notebookId = (await learner.get(`/api/notes/${noteId}`)).body.notebook.id;
    const other = await server.client().loginAs("another_old_learner");
    expect((await other.get(`/api/notebooks/${notebookId}`)).status).toBe(403);
    expect((await other.post(`/api/notebooks/${notebookId}`, { certificateExpiry: "2y" })).status).toBe(403);
    expect((await other.get(`/api/notebooks/${notebookId}/notes`)).status).toBe(403);
    expect((await server.client().get(`/api/notebooks/${notebookId}`)).status).toBe(401);
    expect((await server.client().get("/api/notebooks")).status).toBe(401);
    expect((await learner.get("/api/notebooks/99999")).status).toBe(404);
  });

  test("the notes of a notebook are every undeleted note in it", async () => {
    const ids = await injectNotes(learner, [
      { Title: "Biology" },
      { Title: "Cell", "Parent Title": "Biology" },
      { Title: "Nucleus", "Parent Title": "Cell" },
    ]);
    const notebookId = (await learner.get(`/api/notes/${ids.Biology}`)).body.notebook.id;
    await learner.post(`/api/notes/${ids.Nucleus}/delete`);
    const list = (await learner.get(`/api/notebooks/${notebookId}/notes`)).body;
    expect(list.map((n: { noteTopology: { titleOrPredicate: string } }) => n.noteTopology.titleOrPredicate)).toEqual(["Biology", "Cell"]);
  });
});
