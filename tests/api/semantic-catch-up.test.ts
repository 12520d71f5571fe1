/**
 * Notes written while no AI provider was configured have no embedding: when Engram starts with a
 * provider, they are embedded in the background, and until then semantic search says the index is
 * being built, with how far it got.
 */
import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { runDueJobs, stopJobWorker } from "../../src/jobs/worker";
import { createApp } from "../../src/server";
import { catchUpMissingEmbeddings } from "../../src/services/search";
import { injectNotes } from "../support/notes";
import { type TestServer, useTestServerWithFakeOpenAI } from "../support/server";
import { sqlRows, sqlRun } from "../support/test-database";

/** The kinds of the jobs waiting to run. */
const queuedKinds = async (server: TestServer) =>
  (await sqlRows<{ kind: string }>(server, sql`SELECT kind FROM jobs WHERE status = 'queued'`)).map((job) => job.kind);

describe("notes written before an AI provider was configured", () => {
  const { server } = useTestServerWithFakeOpenAI();

  test("are embedded in the background at start-up, and meanwhile search says the index is being built", async () => {
    const learner = await server.client().loginAs("old_learner");
    await injectNotes(learner, [
      { Title: "Plants", Details: "light and sugar" },
      { Title: "Sugar", Details: "sweet" },
      { Title: "Volcano", Details: "molten rock" },
    ]);
    // As if written without a provider: no embedding, none queued.
    stopJobWorker(server.ctx);
    await sqlRun(server, sql`DELETE FROM jobs`);
    await sqlRun(server, sql`DELETE FROM note_embeddings`);
    const search = () =>
      learner.post("/api/notes/semantic-search", { searchKey: "plants light sugar", allMyNotebooksAndSubscriptions: true });
    expect((await search()).headers.get("x-engram-semantic-progress")).toBeNull(); // nothing queued: nothing said

    // Engram starts (again), now with a provider: the catch-up is queued at once.
    const restarted = createApp(server.ctx).listen({ port: 0, hostname: "127.0.0.1" });
    stopJobWorker(server.ctx); // the test runs the jobs itself
    try {
      // Start-up's catch-up runs on its own (asynchronous) turn: let it.
      for (let turn = 0; turn < 100 && (await queuedKinds(server)).length === 0; turn++) await Bun.sleep(5);
      expect(await queuedKinds(server)).toEqual(["reembed-notes"]);
      const building = await search();
      expect(building.headers.get("x-engram-semantic")).toBe("on");
      expect(building.headers.get("x-engram-semantic-progress")).toBe("0/3");

      while ((await runDueJobs(server.ctx)) > 0) {}
      const built = await search();
      expect(built.headers.get("x-engram-semantic")).toBe("on");
      expect(built.headers.get("x-engram-semantic-progress")).toBeNull();
      expect(built.body.map((hit: { noteTopology: { titleOrPredicate: string } }) => hit.noteTopology.titleOrPredicate)).toContain(
        "Plants",
      );
    } finally {
      await restarted.stop(true);
    }
  });

  test("nothing is queued when every note has its embedding", async () => {
    const learner = await server.client().loginAs("old_learner");
    const ids = await injectNotes(learner, [{ Title: "Plants", Details: "light and sugar" }]);
    stopJobWorker(server.ctx);
    const notebook = (await learner.get(`/api/notes/${ids.Plants}`)).body.notebook.id;
    expect((await learner.post(`/api/notebooks/${notebook}/update-index`)).status).toBe(200);
    await sqlRun(server, sql`DELETE FROM jobs`);
    const restarted = createApp(server.ctx).listen({ port: 0, hostname: "127.0.0.1" });
    stopJobWorker(server.ctx);
    try {
      // Start-up's catch-up runs on its own turn: the same catch-up, awaited, queues nothing either.
      expect(await catchUpMissingEmbeddings(server.ctx)).toBe(false);
      expect(await queuedKinds(server)).toEqual([]);
    } finally {
      await restarted.stop(true);
    }
  });
});
