/**
 * The embedding model and the `dimensions` asked of the provider are settings (Manage
 * Models, admin only). `dimensions` is sent only when set; changing either re-embeds every note in
 * a background job, and semantic search keeps answering meanwhile, comparing the key only with
 * embeddings of the current model and dimension.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { DEFAULT_EMBEDDING_MODEL, embeddingVersion } from "../../src/ai/settings";
import { runDueJobs } from "../../src/jobs/worker";
import { injectNotes } from "../support/notes";
import { type HttpClient, useTestServerWithFakeOpenAI } from "../support/server";
import { sqlRows } from "../support/test-database";

const DEFAULT_DIMENSIONS = 384;

interface Hit {
  noteTopology: { id: number; titleOrPredicate: string };
  distance: number;
}

describe("embedding settings", () => {
  const { server, fake } = useTestServerWithFakeOpenAI({ embeddingDimensions: DEFAULT_DIMENSIONS });
  let admin: HttpClient;
  let learner: HttpClient;
  let ids: Record<string, number>;

  beforeEach(async () => {
    admin = await server.client().loginAs("admin");
    learner = await server.client().loginAs("old_learner");
    ids = await injectNotes(learner, [
      { Title: "Plants", Details: "light and sugar" },
      { Title: "Sugar", Details: "sweet crystals" },
      { Title: "Volcano", Details: "molten rock" },
    ]);
    await embedEverything();
  });

  /** Runs the queued jobs (embedding and re-embedding chains) until none is left. */
  async function embedEverything() {
    await server.client().post("/api/testability/time_travel_relative_to_now", { hours: 1 });
    for (let round = 0; round < 20; round++) {
      if ((await runDueJobs(server.ctx)) === 0) return;
    }
    throw new Error("jobs never ran out");
  }

  const stored = () =>
    sqlRows<{ noteId: number; model: string; dimensions: number; sourceHash: string }>(
      server,
      sql`SELECT note_id AS "noteId", model, dimensions, source_hash AS "sourceHash" FROM note_embeddings ORDER BY note_id`,
    );

  async function semantic(searchKey: string) {
    const result = await learner.post<Hit[]>("/api/notes/semantic-search", {
      searchKey,
      allMyNotebooksAndSubscriptions: true,
      allMyCircles: false,
    });
    expect(result.status).toBe(200);
    expect(result.headers.get("x-engram-semantic")).toBe("on");
    return result.body;
  }

  test("without a dimension set, none is sent and the model's own length is stored", async () => {
    expect((await learner.get("/api/settings/embedding")).body).toEqual({
      embeddingModel: DEFAULT_EMBEDDING_MODEL,
      embeddingDimensions: null,
    });
    const requests = fake.embeddings.requests;
    expect(requests.length).toBeGreaterThan(0);
    for (const request of requests) expect("dimensions" in request).toBe(false);
    expect(new Set((await stored()).map((row) => row.dimensions))).toEqual(new Set([DEFAULT_DIMENSIONS]));
    expect((await semantic("sugar crystals"))[0]!.noteTopology.id).toBe(ids.Sugar!);
  });

  test("only an administrator changes them, and only to a model name and a dimension from 64 to 3072", async () => {
    expect((await learner.post("/api/settings/embedding", { embeddingDimensions: 256 })).status).toBe(403);
    for (const bad of [63, 3073, 100.5, "256", true]) {
      const result = await admin.post("/api/settings/embedding", { embeddingDimensions: bad });
      expect(result.status).toBe(400);
    }
    const blank = await admin.post("/api/settings/embedding", { embeddingModel: "  " });
    expect(blank.status).toBe(400);
    expect((await admin.get("/api/settings/embedding")).body).toEqual({
      embeddingModel: DEFAULT_EMBEDDING_MODEL,
      embeddingDimensions: null,
    });
    expect((await admin.post("/api/settings/embedding", { embeddingDimensions: 64 })).body).toEqual({
      embeddingModel: DEFAULT_EMBEDDING_MODEL,
      embeddingDimensions: 64,
    });
    expect((await admin.post("/api/settings/embedding", { embeddingDimensions: 3072 })).body.embeddingDimensions).toBe(3072);
    // A missing field keeps its value; null clears the dimension.
    expect((await admin.post("/api/settings/embedding", { embeddingModel: "text-embedding-3-large" })).body).toEqual({
      embeddingModel: "text-embedding-3-large",
      embeddingDimensions: 3072,
    });
    expect((await admin.post("/api/settings/embedding", { embeddingDimensions: null })).body).toEqual({
      embeddingModel: "text-embedding-3-large",
      embeddingDimensions: null,
    });
  });

  test("a new dimension is requested from the provider, search answers meanwhile, and the background job re-embeds every note", async () => {
    const before = await stored();
    fake.reset();
    expect((await admin.post("/api/settings/embedding", { embeddingDimensions: 128 })).status).toBe(200);

    // Meanwhile (whether or not the worker has started): the key is embedded at 128 dimensions and
    // only compared with notes already embedded at 128; never an error, never an old vector.
    const meanwhile = await semantic("sugar crystals");
    const at128 = new Set((await stored()).filter((row) => row.dimensions === 128).map((row) => row.noteId));
    for (const hit of meanwhile) expect(at128.has(hit.noteTopology.id)).toBe(true);
    expect(fake.embeddings.requests[0]!.dimensions).toBe(128);

    await embedEverything();
    const after = await stored();
    expect(after.map((row) => row.noteId)).toEqual(before.map((row) => row.noteId));
    for (const row of after) {
      expect(row.dimensions).toBe(128);
      expect(row.model).toBe(DEFAULT_EMBEDDING_MODEL);
    }
    for (const request of fake.embeddings.requests) expect(request.dimensions).toBe(128);
    const hits = await semantic("sugar crystals");
    expect(hits[0]!.noteTopology.id).toBe(ids.Sugar!);

    // Nothing changed since: the job is not queued again and embeds nothing more.
    const requests = fake.embeddings.requests.length;
    await embedEverything();
    expect(fake.embeddings.requests.length).toBe(requests);

    // Cleared: the model's own length again, for every note.
    await admin.post("/api/settings/embedding", { embeddingDimensions: null });
    await embedEverything();
    for (const row of await stored()) expect(row.dimensions).toBe(DEFAULT_DIMENSIONS);
    expect("dimensions" in fake.embeddings.requests.at(-1)!).toBe(false);
    expect((await semantic("molten rock"))[0]!.noteTopology.id).toBe(ids.Volcano!);
  });

  test("a new model re-embeds every note with it; the source hash names model and dimension", async () => {
    await admin.post("/api/settings/embedding", { embeddingModel: "text-embedding-3-large", embeddingDimensions: 256 });
    await embedEverything();
    const rows = await stored();
    expect(rows.length).toBe(3);
    for (const row of rows) {
      expect(row.model).toBe("text-embedding-3-large");
      expect(row.dimensions).toBe(256);
    }
    const version = embeddingVersion({ model: "text-embedding-3-large", dimensions: 256 });
    expect(version).toBe("text-embedding-3-large@256");
    expect(fake.embeddings.requests.at(-1)!.model).toBe("text-embedding-3-large");
    expect((await semantic("light and sugar"))[0]!.noteTopology.id).toBe(ids.Plants!);
  });

  test("a note changed during a re-embedding is embedded once with its new text and the new dimension", async () => {
    await admin.post("/api/settings/embedding", { embeddingDimensions: 96 });
    await learner.patch(`/api/text_content/${ids.Volcano}/details`, { details: "sugar crystals everywhere" });
    await embedEverything();
    const volcano = (await stored()).find((row) => row.noteId === ids.Volcano!)!;
    expect(volcano.dimensions).toBe(96);
    const inputs = fake.embeddings.requests.flatMap((request) =>
      (Array.isArray(request.input) ? request.input : [request.input]).map(String),
    );
    expect(inputs.filter((input) => String(input).includes("Volcano")).at(-1)).toBe("Title: Volcano\nDetails:\nsugar crystals everywhere");
  });
});
