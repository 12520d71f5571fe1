import { beforeEach, describe, expect, test } from "bun:test";
import { LINK_TYPES, reversedLabel } from "../../src/services/links/link-types";
import { childTitles, injectNotes } from "../support/notes";
import { type HttpClient, useTestServer } from "../support/server";

describe("links", () => {
  const server = useTestServer();
  let learner: HttpClient;
  let ids: Record<"Animals" | "Dog" | "Cat" | "Science" | "Biology", number>;
  beforeEach(async () => {
    learner = await server.client().loginAs("old_learner");
    ids = await injectNotes(learner, [
      { Title: "Animals" },
      { Title: "Dog", "Parent Title": "Animals" },
      { Title: "Cat", "Parent Title": "Animals" },
      { Title: "Science" },
      { Title: "Biology", "Parent Title": "Science" },
    ]);
  });

  test("the 15 link types read backwards as the spec says", () => {
    expect(LINK_TYPES).toHaveLength(15);
    expect(reversedLabel("a specialization of")).toBe("a generalization of");
    expect(reversedLabel("author of")).toBe("brought by");
    expect(reversedLabel("before")).toBe("after");
    expect(reversedLabel("similar to")).toBe("similar to");
  });

  test("a link is a note under the source whose title is the type and whose object is the target", async () => {
    const result = await learner.post(`/api/links/create/${ids.Dog}/${ids.Cat}`, { linkType: "similar to" });
    expect(result.status).toBe(200);
    expect(result.body.map((r: { id: number }) => r.id)).toEqual([ids.Dog, ids.Cat]);
    const [link] = result.body[0].children;
    expect(link.noteTopology).toMatchObject({
      titleOrPredicate: "similar to",
      linkType: "similar to",
      objectNoteTopology: { id: ids.Cat, titleOrPredicate: "Cat" },
      parentOrSubjectNoteTopology: { id: ids.Dog, titleOrPredicate: "Dog" },
    });
    const cat = (await learner.get(`/api/notes/${ids.Cat}`)).body;
    expect(cat.inboundReferences.map((r: { id: number }) => r.id)).toEqual([link.id]);
  });

  test("links across notebooks of the same user work", async () => {
    expect((await learner.post(`/api/links/create/${ids.Dog}/${ids.Biology}`, { linkType: "a part of" })).status).toBe(200);
    expect((await learner.get(`/api/notes/${ids.Biology}`)).body.inboundReferences).toHaveLength(1);
  });

  test("the type of a link can be changed, and is validated", async () => {
    const link = (await learner.post(`/api/links/create/${ids.Dog}/${ids.Cat}`, { linkType: "similar to" })).body[0].children[0];
    const changed = await learner.post(`/api/links/${link.id}`, { linkType: "confused with" });
    expect(changed.status).toBe(200);
    expect(changed.body[0].note.noteTopology.linkType).toBe("confused with");
    expect((await learner.post(`/api/links/${link.id}`, { linkType: "loves" })).body.errors.linkType).toBe("must be one of the link types");
    expect((await learner.post(`/api/links/${link.id}`, { linkType: "no link" })).status).toBe(400);
    expect((await learner.post(`/api/links/${ids.Dog}`, { linkType: "related to" })).status).toBe(400);
    const title = await learner.patch(`/api/text_content/${link.id}/title`, { newTitle: "anything" });
    expect(title.body.errors.newTitle).toBe("must be one of the link types");
  });

  test("bad links are refused", async () => {
    expect((await learner.post(`/api/links/create/${ids.Dog}/${ids.Dog}`, { linkType: "related to" })).status).toBe(400);
    expect((await learner.post(`/api/links/create/${ids.Dog}/${ids.Cat}`, { linkType: "no link" })).status).toBe(400);
    expect((await learner.post(`/api/links/create/${ids.Dog}/999999`, { linkType: "related to" })).status).toBe(404);
  });

  test("deleting a link note removes the link from both sides, and undo brings it back", async () => {
    const link = (await learner.post(`/api/links/create/${ids.Dog}/${ids.Cat}`, { linkType: "similar to" })).body[0].children[0];
    await learner.post(`/api/notes/${link.id}/delete`);
    expect((await learner.get(`/api/notes/${ids.Cat}`)).body.inboundReferences).toEqual([]);
    expect(await childTitles(learner, ids.Dog)).toEqual([]);
    await learner.patch(`/api/notes/${link.id}/undo-delete`);
    expect((await learner.get(`/api/notes/${ids.Cat}`)).body.inboundReferences).toHaveLength(1);
  });

  test("move under puts the source last under the target; a head note brings its notebook along", async () => {
    const moved = await learner.post(`/api/links/move/${ids.Cat}/${ids.Biology}`, { asFirstChild: false });
    expect(moved.status).toBe(200);
    expect(await childTitles(learner, ids.Biology)).toEqual(["Cat"]);
    expect(await childTitles(learner, ids.Animals)).toEqual(["Dog"]);
    expect((await learner.post(`/api/links/move/${ids.Animals}/${ids.Dog}`, { asFirstChild: false })).status).toBe(400);
    expect((await learner.post(`/api/links/move/${ids.Science}/${ids.Dog}`, { asFirstChild: false })).status).toBe(200);
    expect((await learner.get("/api/notebooks")).body.notebooks.map((n: { title: string }) => n.title)).toEqual(["Animals"]);
    expect((await learner.get(`/api/notes/${ids.Cat}`)).body.notebook.title).toBe("Animals");
  });

  test("links only from notes the user may edit, to notes the user may read", async () => {
    const other = await server.client().loginAs("another_old_learner");
    const theirs = await injectNotes(other, [{ Title: "Theirs" }]);
    expect((await learner.post(`/api/links/create/${ids.Dog}/${theirs.Theirs}`, { linkType: "related to" })).status).toBe(403);
    expect((await other.post(`/api/links/create/${theirs.Theirs}/${ids.Dog}`, { linkType: "related to" })).status).toBe(403);
    expect((await other.post(`/api/links/move/${ids.Dog}/${theirs.Theirs}`, { asFirstChild: false })).status).toBe(403);
    const link = (await learner.post(`/api/links/create/${ids.Dog}/${ids.Cat}`, { linkType: "similar to" })).body[0].children[0];
    expect((await other.post(`/api/links/${link.id}`, { linkType: "related to" })).status).toBe(403);
    expect((await server.client().post(`/api/links/${link.id}`, { linkType: "related to" })).status).toBe(401);
  });

  test("the link_notes hook creates a link", async () => {
    const result = await learner.post("/api/testability/link_notes", {
      type: "a part of",
      source_id: String(ids.Dog),
      target_id: String(ids.Animals),
    });
    expect(result.body).toBe("OK");
    expect((await learner.get(`/api/notes/${ids.Animals}`)).body.inboundReferences[0].noteTopology.linkType).toBe("a part of");
  });
});
