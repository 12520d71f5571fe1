/**
 * A note's writes raise their own side effects: every change to a note's text or place is recorded
 * in the same transaction (the note_changes outbox, kept by triggers), and the embedding job
 * follows from there, whichever code path wrote the note.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { runDueJobs } from "../../src/jobs/worker";
import { type FakeWikidata, startFakeWikidata, wikidataValue } from "../fakes";
import { injectNotes } from "../support/notes";
import { type HttpClient, useTestServerWithFakeOpenAI } from "../support/server";

describe("re-embedding follows every change of a note's text or place", () => {
  const { server, fake } = useTestServerWithFakeOpenAI();
  let wikidata: FakeWikidata;
  let learner: HttpClient;
  let ids: Record<string, number>;
  beforeAll(async () => {
    wikidata = await startFakeWikidata();
  });
  afterAll(() => wikidata.stop());

  /** Runs the queued embedding jobs (they wait a few seconds after a change); answers the texts embedded meanwhile. */
  async function embeddedAfter(change: () => Promise<unknown>): Promise<string[]> {
    const before = fake.embeddings.requests.length;
    await change();
    await runDueJobs(server.ctx);
    server.ctx.clock.travelTo(new Date(server.ctx.clock.now().getTime() + 3_600_000));
    await runDueJobs(server.ctx);
    return fake.embeddings.requests
      .slice(before)
      .flatMap((request) => request.input as string[])
      .sort();
  }

  beforeEach(async () => {
    wikidata.reset();
    await server.client().post("/api/testability/replace_service_url", { wikidata: wikidata.url });
    learner = await server.client().loginAs("old_learner");
    await embeddedAfter(async () => {
      ids = await injectNotes(learner, [
        { Title: "Plants", Details: "green things" },
        { Title: "Volcano", Details: "molten rock" },
        { Title: "Lava", Details: "hot", "Parent Title": "Volcano" },
        { Title: "Singapore", Details: "The red dot" },
      ]);
    });
  });

  test("moving a note under another (links' move) embeds it and its descendants with their new context", async () => {
    const embedded = await embeddedAfter(() => learner.post(`/api/links/move/${ids.Volcano}/${ids.Plants}`, { asFirstChild: false }));
    expect(embedded).toEqual([
      "Context: Plants\nTitle: Volcano\nDetails:\nmolten rock",
      "Context: Plants › Volcano\nTitle: Lava\nDetails:\nhot",
    ]);
  });

  test("associating a Wikidata entity embeds the details it rewrote", async () => {
    wikidata.addEntity({ id: "Q334", label: "Singapore", claims: { P625: wikidataValue.coordinate(1.3, 103.8) } });
    const embedded = await embeddedAfter(() => learner.post(`/api/notes/${ids.Singapore}/updateWikidataId`, { wikidataId: "Q334" }));
    expect(embedded).toEqual(["Title: Singapore\nDetails:\nLocation: 1.3'N, 103.8'E\nThe red dot"]);
  });

  test("a note restored by undo is embedded with the context it has now", async () => {
    await learner.post(`/api/notes/${ids.Lava}/delete`);
    await embeddedAfter(() => learner.patch(`/api/text_content/${ids.Volcano}/title`, { newTitle: "Mountain" }));
    const embedded = await embeddedAfter(() => learner.patch(`/api/notes/${ids.Lava}/undo-delete`));
    expect(embedded).toEqual(["Context: Mountain\nTitle: Lava\nDetails:\nhot"]);
  });

  test("renaming a note embeds it and its descendants; editing details embeds the note alone", async () => {
    expect(await embeddedAfter(() => learner.patch(`/api/text_content/${ids.Volcano}/title`, { newTitle: "Mountain" }))).toEqual([
      "Context: Mountain\nTitle: Lava\nDetails:\nhot",
      "Title: Mountain\nDetails:\nmolten rock",
    ]);
    expect(await embeddedAfter(() => learner.patch(`/api/text_content/${ids.Lava}/details`, { details: "very hot" }))).toEqual([
      "Context: Mountain\nTitle: Lava\nDetails:\nvery hot",
    ]);
  });
});
