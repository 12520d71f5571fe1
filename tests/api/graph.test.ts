import { beforeEach, describe, expect, test } from "bun:test";
import { RELATIONS_TO_FOCUS_NOTE } from "../../src/services/graph/bare-note";
import { injectNotes } from "../support/notes";
import { type HttpClient, useTestServer } from "../support/server";

describe("GET /api/notes/{note}/graph", () => {
  const server = useTestServer();
  let learner: HttpClient;
  let ids: Record<string, number>;
  beforeEach(async () => {
    learner = await server.client().loginAs("old_learner");
    ids = await injectNotes(learner, [
      { Title: "Animals", Details: "Living things that move" },
      { Title: "Mammals", "Parent Title": "Animals" },
      { Title: "Dog", "Parent Title": "Mammals", Details: "A loyal friend" },
      { Title: "Cat", "Parent Title": "Mammals" },
      { Title: "Wolf", "Parent Title": "Mammals" },
      { Title: "Puppy", "Parent Title": "Dog" },
      { Title: "Pets" },
      { Title: "My pets", "Parent Title": "Pets" },
    ]);
    const linked = await learner.post("/api/testability/link_notes", { type: "a part of", source_id: ids["My pets"], target_id: ids.Dog });
    expect(linked.status).toBe(200);
  });

  const names = (ids: Record<string, number>, uri: string) => Object.entries(ids).find(([, id]) => `/n${id}` === uri)?.[0] ?? uri;

  test("answers the focus note and its related notes labelled with their relation", async () => {
    const response = await learner.get(`/api/notes/${ids.Dog}/graph?tokenLimit=5000`);
    expect(response.status).toBe(200);
    const { focusNote, relatedNotes } = response.body;
    expect(focusNote).toEqual({
      uri: `/n${ids.Dog}`,
      title: "Dog",
      parentUriAndTitle: `[Mammals](/n${ids.Mammals})`,
      relationToFocusNote: "Self",
      details: "A loyal friend",
      contextualPath: [`[Animals](/n${ids.Animals})`, `[Mammals](/n${ids.Mammals})`],
      children: [`[Puppy](/n${ids.Puppy})`],
      priorSiblings: [],
      youngerSiblings: [`[Cat](/n${ids.Cat})`, `[Wolf](/n${ids.Wolf})`],
      inboundReferences: [expect.stringMatching(/^\[a part of\]\(\/n\d+\)$/)],
    });
    const relations = relatedNotes.map((n: { uri: string; relationToFocusNote: string }) => [names(ids, n.uri), n.relationToFocusNote]);
    expect(relations).toEqual([
      ["Mammals", "Parent"],
      ["Animals", "AncestorInContextualPath"],
      ["Puppy", "Child"],
      ["Cat", "YoungerSibling"],
      [expect.stringMatching(/^\/n\d+$/), "InboundReference"],
      // Layer 2 has added 3: layers 3 and 4 take their turn before Wolf.
      ["My pets", "SubjectOfInboundReference"],
      ["Pets", "InboundReferenceContextualPath"],
      ["Wolf", "YoungerSibling"],
    ]);
    for (const note of relatedNotes) expect(RELATIONS_TO_FOCUS_NOTE).toContain(note.relationToFocusNote);
    const link = relatedNotes.find((n: { relationToFocusNote: string }) => n.relationToFocusNote === "InboundReference");
    expect(link).toEqual({
      uri: link.uri,
      subjectUriAndTitle: `[My pets](/n${ids["My pets"]})`,
      predicate: "a part of",
      objectUriAndTitle: `[Dog](/n${ids.Dog})`,
      relationToFocusNote: "InboundReference",
    });
  });

  test("without tokenLimit the budget is 5000 tokens", async () => {
    const defaulted = await learner.get(`/api/notes/${ids.Dog}/graph`);
    expect(defaulted.status).toBe(200);
    expect(defaulted.body).toEqual((await learner.get(`/api/notes/${ids.Dog}/graph?tokenLimit=5000`)).body);
  });

  test("a small tokenLimit keeps the focus note and only what fits", async () => {
    const tiny = await learner.get(`/api/notes/${ids.Dog}/graph?tokenLimit=1`);
    expect(tiny.status).toBe(200);
    expect(tiny.body.focusNote.title).toBe("Dog");
    expect(tiny.body.relatedNotes).toEqual([]);
    expect(tiny.body.focusNote.children).toEqual([]);
    const some = await learner.get(`/api/notes/${ids.Dog}/graph?tokenLimit=150`);
    expect(some.body.relatedNotes.length).toBeGreaterThan(0);
    expect(some.body.relatedNotes.length).toBeLessThan(8);
  });

  test("deleted notes never appear", async () => {
    await learner.post(`/api/notes/${ids.Cat}/delete`);
    const graph = (await learner.get(`/api/notes/${ids.Dog}/graph`)).body;
    expect(JSON.stringify(graph)).not.toContain(`/n${ids.Cat})`);
    expect(graph.relatedNotes.map((n: { uri: string }) => n.uri)).not.toContain(`/n${ids.Cat}`);
  });

  test("tokenLimit must be a whole number from 1 to 100000", async () => {
    for (const bad of ["0", "-5", "100001", "abc", "1.5", ""]) {
      const response = await learner.get(`/api/notes/${ids.Dog}/graph?tokenLimit=${bad}`);
      expect(response.status).toBe(400);
      expect(response.body.errors.tokenLimit).toBe("must be between 1 and 100000");
    }
    expect((await learner.get(`/api/notes/${ids.Dog}/graph?tokenLimit=100000`)).status).toBe(200);
  });

  test("only those who may read the note get its graph", async () => {
    expect((await server.client().get(`/api/notes/${ids.Dog}/graph`)).status).toBe(401);
    const other = await server.client().loginAs("another_old_learner");
    expect((await other.get(`/api/notes/${ids.Dog}/graph`)).status).toBe(403);
    expect((await learner.get("/api/notes/999999/graph")).status).toBe(404);
  });

  test("a link into a notebook the reader may not read never shows that note, not even its title", async () => {
    const other = await server.client().loginAs("another_old_learner");
    const secret = await injectNotes(other, [{ Title: "Secret diary", Details: "Private words" }]);
    const linked = await learner.post("/api/testability/link_notes", {
      type: "related to",
      source_id: ids.Cat,
      target_id: secret["Secret diary"],
    });
    expect(linked.status).toBe(200);
    const response = await learner.get(`/api/notes/${ids.Cat}/graph?tokenLimit=100000`);
    expect(response.status).toBe(200);
    const text = JSON.stringify(response.body);
    expect(text).not.toContain("Secret diary");
    expect(text).not.toContain("Private words");
    // The link note itself is the reader's: it shows, with its subject and type but no object.
    const link = response.body.relatedNotes.find((n: { predicate?: string }) => n.predicate === "related to");
    expect(link).toMatchObject({ subjectUriAndTitle: `[Cat](/n${ids.Cat})` });
    expect(link.objectUriAndTitle).toBeUndefined();
    // The same for the descendants export and the notebook dump.
    const descendants = await learner.get(`/api/notes/${ids.Animals}/descendants`);
    expect(descendants.status).toBe(200);
    expect(JSON.stringify(descendants.body)).toContain("related to");
    expect(JSON.stringify(descendants.body)).not.toContain("Secret diary");
    const notebookId = (await learner.get(`/api/notes/${ids.Cat}`)).body.notebook.id;
    const dump = await learner.get(`/api/notebooks/${notebookId}/dump`);
    expect(dump.status).toBe(200);
    expect(dump.text).toContain("related to");
    expect(dump.text).not.toContain("Secret diary");
  });

  test("a signed-out reader of a bazaar note sees no note of a notebook outside the bazaar", async () => {
    const shared = await learner.post("/api/testability/share_to_bazaar", { noteTopology: "Animals" });
    expect(shared.status).toBe(200);
    const response = await server.client().get(`/api/notes/${ids.Dog}/graph?tokenLimit=100000`);
    expect(response.status).toBe(200);
    const text = JSON.stringify(response.body);
    expect(text).toContain(`[Puppy](/n${ids.Puppy})`);
    // "My pets" links to Dog from the private notebook "Pets".
    expect(text).not.toContain("My pets");
    expect(text).not.toContain(`/n${ids.Pets}`);
    expect(response.body.focusNote.inboundReferences).toEqual([]);
  });

  test("an MCP token reads the graph too", async () => {
    const token = (await learner.post("/api/user/generate-token", { label: "graph" })).body.token;
    const response = await server.client().withBearer(token).get(`/api/notes/${ids.Dog}/graph?tokenLimit=300`);
    expect(response.status).toBe(200);
    expect(response.body.focusNote.uri).toBe(`/n${ids.Dog}`);
  });
});
