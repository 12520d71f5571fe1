import { beforeEach, describe, expect, test } from "bun:test";
import { childTitles, injectNotes } from "../support/notes";
import { type HttpClient, useTestServer } from "../support/server";

describe("notes", () => {
  const server = useTestServer();
  let learner: HttpClient;
  let ids: Record<"Animals" | "Mammals" | "Birds" | "Dog" | "Cat", number>;
  beforeEach(async () => {
    learner = await server.client().loginAs("old_learner");
    ids = await injectNotes(learner, [
      { Title: "Animals", Details: "Living things that move" },
      { Title: "Mammals", "Parent Title": "Animals" },
      { Title: "Birds", "Parent Title": "Animals" },
      { Title: "Dog", "Parent Title": "Mammals", Details: "A **loyal** friend" },
      { Title: "Cat", "Parent Title": "Mammals" },
    ]);
  });

  test("a note realm has the note with its ancestors, children with counts, and the notebook", async () => {
    const realm = (await learner.get(`/api/notes/${ids.Mammals}`)).body;
    expect(realm.id).toBe(ids.Mammals);
    expect(realm.note.noteTopology.parentOrSubjectNoteTopology.titleOrPredicate).toBe("Animals");
    expect(
      realm.children.map((c: { noteTopology: { titleOrPredicate: string }; childrenCount: number }) => [
        c.noteTopology.titleOrPredicate,
        c.childrenCount,
      ]),
    ).toEqual([
      ["Dog", 0],
      ["Cat", 0],
    ]);
    expect(realm.inboundReferences).toEqual([]);
    expect(realm.notebook.title).toBe("Animals");
    expect(realm.fromBazaar).toBe(false);
    const animals = (await learner.get(`/api/notes/${ids.Animals}`)).body;
    expect(animals.children.map((c: { childrenCount: number }) => c.childrenCount)).toEqual([2, 0]);
    expect(animals.note.noteTopology.shortDetails).toBe("Living things that move");
  });

  test("adding a child puts it last; adding after a note puts it right after", async () => {
    const child = await learner.post(`/api/notes/${ids.Mammals}/create`, { newTitle: "Whale" });
    expect(child.status).toBe(200);
    expect(child.body.created.note.noteTopology.titleOrPredicate).toBe("Whale");
    expect(child.body.parent.id).toBe(ids.Mammals);
    const after = await learner.post(`/api/notes/${ids.Dog}/create-after`, { newTitle: "Wolf" });
    expect(after.status).toBe(200);
    expect(await childTitles(learner, ids.Mammals)).toEqual(["Dog", "Wolf", "Cat", "Whale"]);
  });

  test("many inserts after the same note keep their order (renumbering when needed)", async () => {
    for (let i = 0; i < 15; i++) await learner.post(`/api/notes/${ids.Dog}/create-after`, { newTitle: `After ${i}` });
    const titles = await childTitles(learner, ids.Mammals);
    expect(titles[0]).toBe("Dog");
    expect(titles.slice(1, 16)).toEqual(Array.from({ length: 15 }, (_, i) => `After ${14 - i}`));
    expect(titles.at(-1)).toBe("Cat");
  });

  test("new notes are validated", async () => {
    const blank = await learner.post(`/api/notes/${ids.Mammals}/create`, { newTitle: " " });
    expect(blank.status).toBe(400);
    expect(blank.body.errors.newTitle).toBe("size must be between 1 and 150");
    const wikidata = await learner.post(`/api/notes/${ids.Mammals}/create`, { newTitle: "X", wikidataId: "42" });
    expect(wikidata.body.errors.wikidataId).toBe("The wikidata Id should be Q<numbers>");
    expect((await learner.post(`/api/notes/${ids.Animals}/create-after`, { newTitle: "Sibling of the head" })).status).toBe(400);
    expect((await learner.post(`/api/notes/424242/create`, { newTitle: "Orphan" })).status).toBe(404);
  });

  test("title and details are saved; a blank or too long title is refused", async () => {
    const title = await learner.patch(`/api/text_content/${ids.Dog}/title`, { newTitle: "Doggo" });
    expect(title.status).toBe(200);
    expect(title.body.note.noteTopology.titleOrPredicate).toBe("Doggo");
    const details = await learner.patch(`/api/text_content/${ids.Dog}/details`, { details: "# Dogs\n\n- bark" });
    expect(details.body.note.details).toBe("# Dogs\n\n- bark");
    for (const newTitle of ["", "  ", "y".repeat(151)]) {
      const refused = await learner.patch(`/api/text_content/${ids.Dog}/title`, { newTitle });
      expect(refused.status).toBe(400);
      expect(refused.body.errors.newTitle).toBe("size must be between 1 and 150");
    }
    const realm = (await learner.get(`/api/notes/${ids.Dog}`)).body;
    expect(realm.note.noteTopology.titleOrPredicate).toBe("Doggo");
    expect(Date.parse(realm.note.updatedAt)).toBeGreaterThanOrEqual(Date.parse(realm.note.createdAt));
  });

  test("deleting soft-deletes the note and its descendants; undo restores them", async () => {
    const deleted = await learner.post(`/api/notes/${ids.Mammals}/delete`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.map((r: { id: number }) => r.id)).toEqual([ids.Animals]);
    expect(await childTitles(learner, ids.Animals)).toEqual(["Birds"]);
    const dog = (await learner.get(`/api/notes/${ids.Dog}`)).body;
    expect(dog.note.deletedAt).toBeDefined();
    const restored = await learner.patch(`/api/notes/${ids.Mammals}/undo-delete`);
    expect(restored.status).toBe(200);
    expect(restored.body.note.deletedAt).toBeUndefined();
    expect(await childTitles(learner, ids.Animals)).toEqual(["Mammals", "Birds"]);
    expect(await childTitles(learner, ids.Mammals)).toEqual(["Dog", "Cat"]);
  });

  test("undo restores only what was deleted together", async () => {
    await learner.post(`/api/notes/${ids.Cat}/delete`);
    await learner.post(`/api/notes/${ids.Mammals}/delete`);
    await learner.patch(`/api/notes/${ids.Mammals}/undo-delete`);
    expect(await childTitles(learner, ids.Mammals)).toEqual(["Dog"]);
  });

  test("deleting a notebook's head note leaves no focus and removes it from the list", async () => {
    const deleted = await learner.post(`/api/notes/${ids.Animals}/delete`);
    expect(deleted.body).toEqual([]);
    expect((await learner.get("/api/notebooks")).body.notebooks).toEqual([]);
  });

  test("moving: after a sibling, as a first child, and the refusals", async () => {
    const moved = await learner.post(`/api/notes/move_after/${ids.Dog}/${ids.Cat}/false`);
    expect(moved.status).toBe(200);
    expect(await childTitles(learner, ids.Mammals)).toEqual(["Cat", "Dog"]);
    expect((await learner.post(`/api/notes/move_after/${ids.Dog}/${ids.Birds}/true`)).status).toBe(200);
    expect(await childTitles(learner, ids.Birds)).toEqual(["Dog"]);
    expect(await childTitles(learner, ids.Mammals)).toEqual(["Cat"]);
    const differentParent = await learner.post(`/api/notes/move_after/${ids.Cat}/${ids.Dog}/false`);
    expect(differentParent.status).toBe(400);
    expect(differentParent.body.message).toBe("A note can only be moved after one of its siblings");
    const underItself = await learner.post(`/api/notes/move_after/${ids.Mammals}/${ids.Cat}/true`);
    expect(underItself.status).toBe(400);
    expect(underItself.body.message).toBe("A note cannot be moved under itself or its descendants");
    expect((await learner.post(`/api/notes/move_after/${ids.Animals}/${ids.Cat}/true`)).status).toBe(400);
    expect((await learner.post(`/api/notes/move_after/${ids.Cat}/${ids.Cat}/true`)).status).toBe(400);
    expect((await learner.post(`/api/notes/move_after/${ids.Cat}/${ids.Birds}/maybe`)).status).toBe(400);
  });

  test("a note can be moved into another notebook of the same user, taking its subtree along", async () => {
    const other = await injectNotes(learner, [{ Title: "Pets" }]);
    expect((await learner.post(`/api/notes/move_after/${ids.Mammals}/${other.Pets}/true`)).status).toBe(200);
    const dog = (await learner.get(`/api/notes/${ids.Dog}`)).body;
    expect(dog.notebook.title).toBe("Pets");
  });

  test("nobody else reads, edits, moves or deletes the notes", async () => {
    const other = await server.client().loginAs("another_old_learner");
    const theirs = await injectNotes(other, [{ Title: "Theirs" }]);
    expect((await other.get(`/api/notes/${ids.Dog}`)).status).toBe(403);
    expect((await other.patch(`/api/text_content/${ids.Dog}/title`, { newTitle: "Hacked" })).status).toBe(403);
    expect((await other.patch(`/api/text_content/${ids.Dog}/details`, { details: "Hacked" })).status).toBe(403);
    expect((await other.post(`/api/notes/${ids.Dog}/create`, { newTitle: "Intruder" })).status).toBe(403);
    expect((await other.post(`/api/notes/${ids.Dog}/delete`)).status).toBe(403);
    expect((await other.patch(`/api/notes/${ids.Dog}/undo-delete`)).status).toBe(403);
    expect((await learner.post(`/api/notes/move_after/${ids.Dog}/${theirs.Theirs}/true`)).status).toBe(403);
    expect((await other.post(`/api/notes/move_after/${theirs.Theirs}/${ids.Dog}/true`)).status).toBe(403);
    const anonymous = server.client();
    expect((await anonymous.get(`/api/notes/${ids.Dog}`)).status).toBe(401);
    expect((await anonymous.patch(`/api/text_content/${ids.Dog}/title`, { newTitle: "Anon" })).status).toBe(401);
    expect((await learner.get(`/api/notes/${ids.Dog}`)).body.note.noteTopology.titleOrPredicate).toBe("Dog");
    expect((await learner.get("/api/notes/999999")).status).toBe(404);
  });

  test("recent notes are the user's, most recently updated first", async () => {
    await learner.patch(`/api/text_content/${ids.Birds}/title`, { newTitle: "Birds!" });
    const recent = (await learner.get("/api/notes/recent")).body;
    expect(recent[0].note.noteTopology.titleOrPredicate).toBe("Birds!");
    expect(recent).toHaveLength(5);
    expect(recent[0].notebook.title).toBe("Animals");
    const other = await server.client().loginAs("another_old_learner");
    expect((await other.get("/api/notes/recent")).body).toEqual([]);
  });

  test("the count a delete confirms is of the undeleted notes below, links left out; strangers get none", async () => {
    expect((await learner.get(`/api/notes/${ids.Animals}/descendant-count`)).body).toEqual({ count: 4 });
    await learner.post("/api/testability/link_notes", { type: "related to", source_id: String(ids.Dog), target_id: String(ids.Birds) });
    await learner.post(`/api/notes/${ids.Cat}/delete`);
    expect((await learner.get(`/api/notes/${ids.Animals}/descendant-count`)).body).toEqual({ count: 3 });
    expect((await learner.get(`/api/notes/${ids.Dog}/descendant-count`)).body).toEqual({ count: 0 });
    const stranger = await server.client().loginAs("another_old_learner");
    expect((await stranger.get(`/api/notes/${ids.Animals}/descendant-count`)).status).toBe(403);
    expect((await server.client().get(`/api/notes/${ids.Animals}/descendant-count`)).status).toBe(401);
  });

  test("descendants are the focus note and every undeleted note below it", async () => {
    await learner.post(`/api/notes/${ids.Cat}/delete`);
    const result = (await learner.get(`/api/notes/${ids.Animals}/descendants`)).body;
    expect(result.focusNote).toMatchObject({ uri: `/n${ids.Animals}`, title: "Animals", relationToFocusNote: "Self" });
    expect(result.focusNote.children).toEqual([`[Mammals](/n${ids.Mammals})`, `[Birds](/n${ids.Birds})`]);
    const titles = result.relatedNotes.map((n: { title: string }) => n.title).sort();
    expect(titles).toEqual(["Birds", "Dog", "Mammals"]);
    const dog = result.relatedNotes.find((n: { title: string }) => n.title === "Dog");
    expect(dog).toMatchObject({ parentUriAndTitle: `[Mammals](/n${ids.Mammals})`, details: "A **loyal** friend" });
  });
});
