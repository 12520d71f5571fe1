import { beforeEach, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { runDueJobs } from "../../src/jobs/worker";
import { injectNotes } from "../support/notes";
import { type HttpClient, useTestServer, useTestServerWithFakeOpenAI } from "../support/server";
import { sqlRow } from "../support/test-database";

interface Result {
  noteTopology: { id: number; titleOrPredicate: string; shortDetails: string };
  distance: number;
}

const titles = (results: Result[]) => results.map((r) => r.noteTopology.titleOrPredicate);

async function search(client: HttpClient, searchKey: string, options: { note?: number; all?: boolean; semantic?: boolean } = {}) {
  const path = `/api/notes/${options.note === undefined ? "" : `${options.note}/`}${options.semantic ? "semantic-search" : "search"}`;
  const result = await client.post<Result[]>(path, {
    searchKey,
    allMyNotebooksAndSubscriptions: options.all ?? false,
    allMyCircles: false,
  });
  if (result.status !== 200) throw new Error(`${path} answered ${result.status}: ${result.text}`);
  return result;
}

describe("literal search", () => {
  const server = useTestServer();
  let learner: HttpClient;
  let ids: Record<string, number>;
  beforeEach(async () => {
    learner = await server.client().loginAs("old_learner");
    ids = await injectNotes(learner, [
      { Title: "Biology", Details: "The study of life" },
      { Title: "Photosynthesis", "Parent Title": "Biology", Details: "Plants turn light into sugar" },
      { Title: "Cat", "Parent Title": "Biology", Details: "A small feline" },
      { Title: "Wildcat", "Parent Title": "Biology" },
      { Title: "Dogs and cats", "Parent Title": "Biology" },
      { Title: "Pets", "Parent Title": "Biology", Details: "Most people keep a cat or a dog" },
      { Title: "Ox", "Parent Title": "Biology", Details: "A strong animal" },
      { Title: "Cooking" },
      { Title: "Catalan cream", "Parent Title": "Cooking", Details: "A custard" },
    ]);
  });

  test("finds a substring of a title, in any case", async () => {
    const { body } = await search(learner, "SYNTH");
    expect(titles(body)).toEqual(["Photosynthesis"]);
    expect(body[0]!.noteTopology).toEqual({
      id: ids.Photosynthesis!,
      titleOrPredicate: "Photosynthesis",
      shortDetails: "Plants turn light into sugar",
    });
  });

  test("short details keep the text as written and never start with front matter", async () => {
    const code = await injectNotes(learner, [
      { Title: "Python dunders", Details: "call my_var_name and __init__ then 2*3*4" },
      { Title: "Imported cells", Details: "---\ntags:\n  - cell\n---\n\nThe **units** of life" },
    ]);
    const dunders = (await search(learner, "dunders")).body;
    expect(dunders[0]!.noteTopology).toMatchObject({
      id: code["Python dunders"],
      shortDetails: "call my_var_name and __init__ then 2*3*4",
    });
    const cells = (await search(learner, "Imported cells")).body;
    expect(cells[0]!.noteTopology).toMatchObject({ id: code["Imported cells"], shortDetails: "The units of life" });
  });

  test("a multi-word key finds notes having every word, in the title or the details", async () => {
    expect(titles((await search(learner, "light sugar")).body)).toEqual(["Photosynthesis"]);
    expect(titles((await search(learner, "sugar moon")).body)).toEqual([]);
    expect(titles((await search(learner, "Pets dog")).body)).toEqual(["Pets"]);
  });

  test("an exact title comes first (distance 0), then titles containing the key, then details", async () => {
    const { body } = await search(learner, "cat");
    expect(titles(body)[0]).toBe("Cat");
    expect(body[0]!.distance).toBe(0);
    expect(new Set(titles(body).slice(1, 4))).toEqual(new Set(["Wildcat", "Dogs and cats", "Catalan cream"]));
    expect(titles(body).at(-1)).toBe("Pets");
    for (const result of body.slice(1, 4)) expect(result.distance).toBeGreaterThan(0.099);
    for (const result of body.slice(1, 4)) expect(result.distance).toBeLessThan(0.2);
    expect(body.at(-1)!.distance).toBeGreaterThanOrEqual(0.3);
    const distances = body.map((r) => r.distance);
    expect([...distances].sort((a, b) => a - b)).toEqual(distances);
  });

  test("keys shorter than three characters are found too", async () => {
    expect(titles((await search(learner, "ox")).body)).toEqual(["Ox"]);
    expect(titles((await search(learner, "OX")).body)).toEqual(["Ox"]);
    // a short word next to a long one narrows the long one's matches
    expect(titles((await search(learner, "cat or")).body)).toEqual(["Pets"]);
  });

  test("a blank key finds nothing", async () => {
    expect((await search(learner, "   ")).body).toEqual([]);
  });

  test("deleted notes are never found", async () => {
    await learner.post(`/api/notes/${ids.Wildcat}/delete`);
    expect(titles((await search(learner, "wildcat")).body)).toEqual([]);
  });

  test("another user's notes are never found", async () => {
    const other = await server.client().loginAs("another_old_learner");
    expect((await search(other, "cat")).body).toEqual([]);
    expect((await search(other, "cat", { all: true })).body).toEqual([]);
    const theirs = await injectNotes(other, [{ Title: "Cat of another learner" }]);
    expect(titles((await search(learner, "another learner")).body)).toEqual([]);
    expect(titles((await search(learner, "cat", { all: true, note: ids.Biology })).body)).not.toContain("Cat of another learner");
    // nor can one search from another user's note
    const refused = await learner.post(`/api/notes/${theirs["Cat of another learner"]}/search`, { searchKey: "cat" });
    expect(refused.status).toBe(403);
  });

  test("a note's link search stays in its notebook unless all my notebooks is chosen; the global search covers them all", async () => {
    expect(titles((await search(learner, "cat", { note: ids.Photosynthesis })).body)).not.toContain("Catalan cream");
    expect(titles((await search(learner, "cat", { note: ids.Photosynthesis, all: true })).body)).toContain("Catalan cream");
    expect(titles((await search(learner, "cat")).body)).toContain("Catalan cream");
    // allMyCircles widens like allMyNotebooksAndSubscriptions
    const circles = await learner.post<Result[]>(`/api/notes/${ids.Photosynthesis}/search`, { searchKey: "cat", allMyCircles: true });
    expect(titles(circles.body)).toContain("Catalan cream");
  });

  test("the note itself is never a result of its own link search", async () => {
    expect(titles((await search(learner, "Cat", { note: ids.Cat })).body)).not.toContain("Cat");
    expect(titles((await search(learner, "Cat", { note: ids.Cat, semantic: true })).body)).not.toContain("Cat");
  });

  test("needs a signed-in user and a search key", async () => {
    expect((await server.client().post("/api/notes/search", { searchKey: "cat" })).status).toBe(401);
    const missing = await learner.post("/api/notes/search", { allMyCircles: true });
    expect(missing.status).toBe(400);
    expect(missing.body.errors.searchKey).toBeDefined();
    expect((await learner.post("/api/notes/999999/search", { searchKey: "cat" })).status).toBe(404);
  });

  test("without an embedding provider, semantic search answers the literal results and says semantic search is off", async () => {
    const literal = await search(learner, "cat");
    const semantic = await search(learner, "cat", { semantic: true });
    expect(semantic.headers.get("x-engram-semantic")).toBe("off");
    expect(semantic.body).toEqual(literal.body);
    const fromNote = await search(learner, "cat", { note: ids.Photosynthesis, semantic: true });
    expect(fromNote.headers.get("x-engram-semantic")).toBe("off");
  });

  test("the index operations say AI is not configured without a provider", async () => {
    const notebookId = (await learner.get(`/api/notes/${ids.Biology}`)).body.notebook.id;
    for (const operation of ["update-index", "reset-index"]) {
      const result = await learner.post(`/api/notebooks/${notebookId}/${operation}`);
      expect(result.status).toBe(503);
      expect(result.body.message).toBe("AI is not configured");
    }
  });
});

describe("semantic search", () => {
  const { server, fake } = useTestServerWithFakeOpenAI();
  let learner: HttpClient;
  let ids: Record<string, number>;
  const notebookOf = async (noteId: number): Promise<number> => (await learner.get(`/api/notes/${noteId}`)).body.notebook.id;
  beforeEach(async () => {
    learner = await server.client().loginAs("old_learner");
    // Fake embeddings are bags of words: notes sharing more words with the key are closer.
    ids = await injectNotes(learner, [
      { Title: "Plants", Details: "light and sugar" },
      { Title: "Sugar", Details: "sweet" },
      { Title: "Volcano", Details: "molten rock" },
    ]);
    await runDueJobs(server.ctx);
    for (const id of [ids.Plants!, ids.Sugar!, ids.Volcano!]) {
      expect((await learner.post(`/api/notebooks/${await notebookOf(id)}/update-index`)).status).toBe(200);
    }
  });

  test("answers the notes nearest to the key, nearest first, leaving out unrelated notes", async () => {
    const result = await search(learner, "plants light sugar", { semantic: true });
    expect(result.headers.get("x-engram-semantic")).toBe("on");
    expect(titles(result.body)).toEqual(["Plants", "Sugar"]);
    expect(result.body[0]!.distance).toBeLessThan(result.body[1]!.distance);
    expect(result.body[1]!.distance).toBeLessThanOrEqual(0.75);
    const lastQuery = fake.embeddings.requests.at(-1)!;
    expect(lastQuery.input).toEqual(["plants light sugar"]);
    expect(lastQuery.model).toBe("text-embedding-3-small");
  });

  test("never answers another user's notes, deleted notes, or the note itself", async () => {
    const other = await server.client().loginAs("another_old_learner");
    expect((await search(other, "plants light sugar", { semantic: true })).body).toEqual([]);
    await learner.post(`/api/notes/${ids.Sugar}/delete`);
    expect(titles((await search(learner, "plants light sugar", { semantic: true })).body)).toEqual(["Plants"]);
    expect(titles((await search(learner, "plants light sugar", { semantic: true, note: ids.Plants, all: true })).body)).toEqual([]);
  });

  test("a failing provider gives the literal results and says semantic search failed", async () => {
    fake.embeddings.failWith(500, "The embedding server is down");
    const result = await search(learner, "sweet", { semantic: true });
    expect(result.headers.get("x-engram-semantic")).toBe("failed");
    expect(titles(result.body)).toEqual(["Sugar"]);
  });

  test("update index embeds each note's path, title and details once; reset index embeds them all again", async () => {
    const embedded = fake.embeddings.requests.flatMap((r) => r.input as string[]);
    expect(embedded).toContain("Title: Plants\nDetails:\nlight and sugar");
    const child = await injectNotes(learner, [{ Title: "Leaf", "Parent Title": "Plants", Details: "green" }]);
    const notebookId = await notebookOf(ids.Plants!);
    const before = fake.embeddings.requests.length;
    await learner.post(`/api/notebooks/${notebookId}/update-index`);
    expect(fake.embeddings.requests.slice(before).flatMap((r) => r.input as string[])).toEqual([
      "Context: Plants\nTitle: Leaf\nDetails:\ngreen",
    ]);
    expect(titles((await search(learner, "green leaf", { semantic: true })).body)).toEqual(["Leaf"]);

    const again = fake.embeddings.requests.length;
    await learner.post(`/api/notebooks/${notebookId}/update-index`);
    expect(fake.embeddings.requests.length).toBe(again);

    const reset = await learner.post(`/api/notebooks/${notebookId}/reset-index`);
    expect(reset.status).toBe(200);
    expect(
      fake.embeddings.requests
        .slice(again)
        .flatMap((r) => r.input as string[])
        .sort(),
    ).toEqual(["Context: Plants\nTitle: Leaf\nDetails:\ngreen", "Title: Plants\nDetails:\nlight and sugar"]);
    expect(child.Leaf).toBeNumber();
  });

  test("only the notebook's editor may update or reset its index", async () => {
    const other = await server.client().loginAs("another_old_learner");
    const notebookId = await notebookOf(ids.Plants!);
    expect((await other.post(`/api/notebooks/${notebookId}/update-index`)).status).toBe(403);
    expect((await other.post(`/api/notebooks/${notebookId}/reset-index`)).status).toBe(403);
    expect((await server.client().post(`/api/notebooks/${notebookId}/update-index`)).status).toBe(401);
  });

  test("a failing provider fails the index update with a 503 (its 401 never looks like being signed out)", async () => {
    await learner.patch(`/api/text_content/${ids.Volcano}/details`, { details: "ash and lava" });
    const notebookId = await notebookOf(ids.Volcano!);
    fake.embeddings.failWith(500, "The embedding server is down");
    const failed = await learner.post(`/api/notebooks/${notebookId}/update-index`);
    expect(failed.status).toBe(503);
    expect(failed.body.message).toBe("The AI service did not answer. Please try again later.");
    fake.embeddings.failWith(401, "Incorrect API key provided");
    expect((await learner.post(`/api/notebooks/${notebookId}/update-index`)).status).toBe(503);
    fake.embeddings.respondWithRaw(JSON.stringify({ object: "list", data: [], model: "text-embedding-3-small" }));
    const short = await learner.post(`/api/notebooks/${notebookId}/update-index`);
    expect(short.status).toBe(503);
    expect(short.body.message).toBe("The embedding provider answered 0 vectors for 1 texts");
  });

  test("the embedding job embeds a note again after its text changed", async () => {
    await learner.patch(`/api/text_content/${ids.Volcano}/details`, { details: "sugar crystals" });
    // the job waits a few seconds (typing bursts collapse into one embedding)
    await server.client().post("/api/testability/time_travel_relative_to_now", { hours: 1 });
    await runDueJobs(server.ctx);
    expect(fake.embeddings.requests.at(-1)!.input).toEqual(["Title: Volcano\nDetails:\nsugar crystals"]);
    expect(titles((await search(learner, "volcano sugar crystals", { semantic: true })).body)[0]).toBe("Volcano");
    const jobs = await sqlRow<{ n: number }>(server, sql`SELECT CAST(count(*) AS integer) AS n FROM jobs`);
    expect(jobs!.n).toBe(0);
  });

  test("the app's background worker runs the embedding job by itself", async () => {
    await learner.patch(`/api/text_content/${ids.Sugar}/details`, { details: "honey and syrup" });
    // The worker relays the change as a job (due a few seconds later) on its own, then runs it once due.
    const queued = async () =>
      (await sqlRow(server, sql`SELECT 1 FROM jobs WHERE kind = 'embed-note' AND status = 'queued'`)) !== undefined;
    for (const deadline = Date.now() + 5000; !(await queued()) && Date.now() < deadline; ) await Bun.sleep(50);
    await server.client().post("/api/testability/time_travel_relative_to_now", { hours: 1 });
    const expected = "Title: Sugar\nDetails:\nhoney and syrup";
    const deadline = Date.now() + 5000;
    while (!fake.embeddings.requests.some((r) => (r.input as string[]).includes(expected)) && Date.now() < deadline) await Bun.sleep(50);
    expect(fake.embeddings.requests.at(-1)!.input).toEqual([expected]);
  });

  test("editing a note's title or details queues its embedding", async () => {
    await learner.patch(`/api/text_content/${ids.Volcano}/title`, { newTitle: "Sugar volcano" });
    await server.client().post("/api/testability/time_travel_relative_to_now", { hours: 1 });
    await runDueJobs(server.ctx);
    expect(fake.embeddings.requests.at(-1)!.input).toEqual(["Title: Sugar volcano\nDetails:\nmolten rock"]);
  });
});
