/**
 * Semantic search through the binary-quantised index: candidates by Hamming distance,
 * then the exact cosine re-rank. Compared with the exact ranking computed here over the
 * same scope: identical on small data, recall@10 >= 0.95 on more notes than the candidate count;
 * never another user's, deleted or moved-away notes; the bits follow the embeddings (triggers).
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { and, eq, inArray, isNull, ne, sql } from "drizzle-orm";
import { embeddingModel } from "../../src/ai/settings";
import { createContext } from "../../src/context";
import { stopJobWorker } from "../../src/jobs/worker";
import * as binaryIndex from "../../src/services/search/binary-index";
import { quantizeBinary } from "../../src/services/search/binary-index";
import { vectorBlob } from "../../src/services/search/embedding-source";
import { SEARCH_LIMIT } from "../../src/services/search/literal";
import { MAX_SEMANTIC_DISTANCE, SEMANTIC_CANDIDATES } from "../../src/services/search/semantic";
import { cosineDistance } from "../../src/store/search/semantic-postgres";
import { all, run } from "../../src/store/session";
import { fakeEmbedding } from "../fakes";
import { injectNotes } from "../support/notes";
import { type HttpClient, useTestServerWithFakeOpenAI } from "../support/server";
import { inRead, inWrite, sqlRow, sqlRows, sqlRun } from "../support/test-database";

const DIMENSIONS = 1536;
const WORDS = Array.from({ length: 60 }, (_, i) => `w${i}x${(i * 7919) % 997}`);

/** Deterministic text of a few words, so fake embeddings share buckets in varied amounts. */
function textOf(i: number): string {
  const words: string[] = [];
  for (let k = 0; k < 6; k++) words.push(WORDS[(i * (k + 3) + k * k * 11 + (i >> k)) % WORDS.length]!);
  return words.join(" ");
}

interface Hit {
  noteTopology: { id: number; titleOrPredicate: string };
  distance: number;
}

describe("semantic search through the binary index", () => {
  const { server } = useTestServerWithFakeOpenAI({ embeddingDimensions: DIMENSIONS });
  let learner: HttpClient;

  beforeEach(async () => {
    // The tests write the embeddings themselves: the background worker would replace them with the
    // notes' own texts' (a few seconds after each note's change), maybe between two compared answers.
    stopJobWorker(server.ctx);
    learner = await server.client().loginAs("old_learner");
  });

  const onSqlite = () => server.ctx.database.dialect === "sqlite";
  const keyBlob = (key: string) => vectorBlob(Float32Array.from(fakeEmbedding(key, DIMENSIONS)));

  /** Notes under one head, with embeddings written straight into note_embeddings in one transaction (the triggers fill the bits). */
  async function seed(client: HttpClient, head: string, count: number, given?: string) {
    const model = given ?? (await embeddingModel(server.ctx));
    const rows = [
      { Title: head },
      ...Array.from({ length: count }, (_, i) => ({ Title: `${head} ${i}`, "Parent Title": head, Details: textOf(i) })),
    ];
    const ids = await injectNotes(client, rows);
    await inWrite(server, function* (s) {
      const e = s.t.noteEmbeddings;
      for (let i = 0; i < count; i++) {
        const values = { model, dimensions: DIMENSIONS, embedding: keyBlob(textOf(i)) };
        yield* run(
          s,
          s.db
            .insert(e)
            .values({ noteId: ids[`${head} ${i}`]!, ...values, sourceHash: "test", updatedAt: new Date(0) })
            .onConflictDoUpdate({ target: e.noteId, set: values }),
        );
      }
    });
    return ids;
  }

  async function semantic(client: HttpClient, key: string, note?: number): Promise<Hit[]> {
    const path = note === undefined ? "/api/notes/semantic-search" : `/api/notes/${note}/semantic-search`;
    const result = await client.post<Hit[]>(path, { searchKey: key, allMyNotebooksAndSubscriptions: false, allMyCircles: false });
    expect(result.status).toBe(200);
    expect(result.headers.get("x-engram-semantic")).toBe("on");
    return result.body;
  }

  /**
   * Every embedding of the current model in the notebooks' undeleted notes, by exact cosine
   * distance to the key, those within reach, nearest first, then by note id: sqlite-vec's
   * vec_distance_cosine on SQLite; on PostgreSQL, which has no vector functions, every vector is
   * read and compared here as sqlite-vec does (the store's float32 cosine).
   */
  async function ranking(key: string, notebookIds: number[], excludeNoteId = -1): Promise<{ noteId: number; distance: number }[]> {
    const model = await embeddingModel(server.ctx);
    const vector = Float32Array.from(fakeEmbedding(key, DIMENSIONS));
    if (onSqlite()) {
      return sqlRows(
        server,
        sql`SELECT e.note_id AS "noteId", vec_distance_cosine(e.embedding, ${vectorBlob(vector)}) AS distance
            FROM note_embeddings e JOIN notes n ON n.id = e.note_id
            WHERE n.notebook_id IN (SELECT value FROM json_each(${JSON.stringify(notebookIds)})) AND n.deleted_at IS NULL
              AND n.id <> ${excludeNoteId} AND e.model = ${model} AND vec_distance_cosine(e.embedding, ${vectorBlob(vector)}) <= ${MAX_SEMANTIC_DISTANCE}
            ORDER BY distance, n.id`,
      );
    }
    const rows = await inRead(server, function* (s) {
      const { noteEmbeddings: e, notes: n } = s.t;
      return yield* all(
        s,
        s.db
          .select({ noteId: e.noteId, embedding: e.embedding })
          .from(e)
          .innerJoin(n, eq(n.id, e.noteId))
          .where(and(inArray(n.notebookId, notebookIds), isNull(n.deletedAt), ne(n.id, excludeNoteId), eq(e.model, model))),
      );
    });
    return rows
      .map((row) => ({ noteId: row.noteId, distance: cosineDistance(new Float32Array(Uint8Array.from(row.embedding).buffer), vector) }))
      .filter((row) => row.distance <= MAX_SEMANTIC_DISTANCE)
      .sort((a, b) => a.distance - b.distance || a.noteId - b.noteId);
  }

  /** The exact ranking: the first page of it. */
  const exact = async (key: string, notebookIds: number[], excludeNoteId = -1) =>
    (await ranking(key, notebookIds, excludeNoteId)).slice(0, SEARCH_LIMIT);

  const notebookOf = async (noteId: number) => (await learner.get(`/api/notes/${noteId}`)).body.notebook.id as number;

  test("the key's bits are what the database's triggers store: sqlite-vec's vec_quantize_binary, PostgreSQL's engram_quantize_binary", async () => {
    const vector = Float32Array.from({ length: 64 }, (_, i) => Math.sin(i * 1.7));
    const stored = (await sqlRow<{ b: Uint8Array }>(
      server,
      onSqlite()
        ? sql`SELECT vec_quantize_binary(${vectorBlob(vector)}) AS b`
        : sql`SELECT engram_quantize_binary(${vectorBlob(vector)}, ${vector.length}) AS b`,
    ))!.b;
    expect(Buffer.from(quantizeBinary(vector).buffer).equals(Buffer.from(stored))).toBe(true);
  });

  test("on a small notebook the answer is the exact ranking, in the same order", async () => {
    const ids = await seed(learner, "Small", 60);
    const notebook = await notebookOf(ids.Small!);
    for (const key of [textOf(3), textOf(17), `${WORDS[1]} ${WORDS[2]} ${WORDS[40]}`]) {
      const hits = await semantic(learner, key);
      expect(hits.length).toBeGreaterThan(0);
      expect(hits.map((h) => h.noteTopology.id)).toEqual((await exact(key, [notebook])).map((r) => r.noteId));
      for (const [i, hit] of hits.entries()) expect(hit.distance).toBeCloseTo((await exact(key, [notebook]))[i]!.distance, 5);
    }
  });

  test("after another note's embedding changed, the copy in memory follows that change alone: a small scope still answers the exact ranking, a large one sees the new vector, nothing is loaded whole again", async () => {
    const small = await seed(learner, "Few", 40);
    const other = await server.client().loginAs("another_old_learner");
    const theirs = await seed(other, "Many", SEMANTIC_CANDIDATES + 10);
    const key = textOf(9);
    const fewNotebook = await notebookOf(small.Few!);
    await semantic(learner, key);
    await semantic(other, key);
    // Someone else's note is embedded anew: the copy in memory is out of date.
    await sqlRun(server, sql`UPDATE note_embeddings SET embedding = ${keyBlob(textOf(11))} WHERE note_id = ${theirs["Many 3"]!}`);
    const loads = binaryIndex.binaryIndexLoads;
    const refreshes = binaryIndex.binaryIndexRefreshes;
    const hits = await semantic(learner, key);
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.map((h) => h.noteTopology.id)).toEqual((await exact(key, [fewNotebook])).map((r) => r.noteId));
    expect(binaryIndex.binaryIndexRefreshes).toBe(refreshes + 1);
    const many = await semantic(other, textOf(11));
    expect(many.map((h) => h.noteTopology.id)).toContain(theirs["Many 3"]!);
    expect(binaryIndex.binaryIndexLoads).toBe(loads);
  }, 60_000);

  test("a copy refreshed from the log after rewrites, deletions, moves and new notes, by another process, holds what a copy loaded whole holds", async () => {
    const mine = await seed(learner, "Mine", 50);
    const other = await server.client().loginAs("another_old_learner");
    const theirs = await seed(other, "Theirs", 50);
    const model = await embeddingModel(server.ctx);
    const before = binaryIndex.binaryIndexLoads;
    await binaryIndex.binaryIndexContents(server.ctx, model, DIMENSIONS); // held in memory from here on
    // Another process writes straight into the database.
    await sqlRun(server, sql`UPDATE note_embeddings SET embedding = ${keyBlob(textOf(99))} WHERE note_id = ${mine["Mine 1"]!}`);
    await sqlRun(server, sql`DELETE FROM note_embeddings WHERE note_id IN (${mine["Mine 2"]!}, ${theirs["Theirs 3"]!})`);
    await sqlRun(
      server,
      sql`UPDATE notes SET notebook_id = (SELECT notebook_id FROM notes WHERE id = ${theirs.Theirs!}) WHERE id IN (${mine["Mine 4"]!}, ${mine["Mine 5"]!})`,
    );
    await sqlRun(server, sql`UPDATE note_embeddings SET model = 'another-model' WHERE note_id = ${mine["Mine 6"]!}`);
    await seed(learner, "More", 10);
    const refreshed = await binaryIndex.binaryIndexContents(server.ctx, model, DIMENSIONS);
    expect(binaryIndex.binaryIndexLoads).toBe(before + 1);
    const fresh = await createContext(server.ctx.config);
    try {
      expect(refreshed).toEqual(await binaryIndex.binaryIndexContents(fresh, model, DIMENSIONS));
    } finally {
      await fresh.database.close();
    }
    expect(refreshed.map(([noteId]) => noteId)).not.toContain(mine["Mine 2"]!);
    expect(refreshed.map(([noteId]) => noteId)).not.toContain(mine["Mine 6"]!);
  }, 60_000);

  test(`with more notes than the ${SEMANTIC_CANDIDATES} candidates, recall@10 against the exact ranking is at least 0.95`, async () => {
    const ids = await seed(learner, "Large", 3 * SEMANTIC_CANDIDATES);
    const notebook = await notebookOf(ids.Large!);
    let recall = 0;
    const keys = Array.from({ length: 12 }, (_, k) => textOf(k * 37 + 5));
    for (const key of keys) {
      const truth = new Set((await exact(key, [notebook])).slice(0, 10).map((r) => r.noteId));
      const got = (await semantic(learner, key)).slice(0, 10).map((h) => h.noteTopology.id);
      recall += got.filter((id) => truth.has(id)).length / Math.max(1, truth.size);
    }
    expect(recall / keys.length).toBeGreaterThanOrEqual(0.95);
  }, 60_000);

  test("when the nearest notes are deleted, more than a page of them, the answer is still the exact ranking of the rest", async () => {
    const ids = await seed(learner, "Small", 600);
    const notebook = await notebookOf(ids.Small!);
    // Every note within reach of the key, nearest first (no page limit).
    const within = async (key: string) => (await ranking(key, [notebook])).map((r) => r.noteId);
    // The key with the most notes within reach among a few single words (the first of them on a tie).
    let key = WORDS[0]!;
    let reachable = await within(key);
    for (const word of WORDS.slice(1, 40)) {
      const reach = await within(word);
      if (reach.length > reachable.length) [key, reachable] = [word, reach];
    }
    expect(reachable.length).toBeGreaterThan(75);
    // The 70 nearest (more than the two pages of 30 checked at a time) go, straight in the database.
    const gone = reachable.slice(0, 70);
    await inWrite(server, function* (s) {
      const n = s.t.notes;
      return yield* run(
        s,
        s.db
          .update(n)
          .set({ deletedAt: new Date(1) })
          .where(inArray(n.id, gone)),
      );
    });
    const hits = (await semantic(learner, key)).map((h) => h.noteTopology.id);
    expect(hits).toEqual(reachable.slice(70, 70 + SEARCH_LIMIT));
  });

  test("never another user's notes, deleted notes, the note itself, a note moved out of the scope, or another model's embeddings", async () => {
    const mine = await seed(learner, "Mine", 20);
    const other = await server.client().loginAs("another_old_learner");
    await seed(other, "Theirs", 20);
    const key = textOf(4);
    const ownIds = new Set(Object.values(mine));
    const hits = await semantic(learner, key);
    expect(hits.length).toBeGreaterThan(0);
    for (const hit of hits) expect(ownIds.has(hit.noteTopology.id)).toBe(true);
    expect(hits[0]!.noteTopology.id).toBe(mine["Mine 4"]!);

    await learner.post(`/api/notes/${mine["Mine 4"]}/delete`);
    expect((await semantic(learner, key)).map((h) => h.noteTopology.id)).not.toContain(mine["Mine 4"]);
    expect((await semantic(learner, key, mine["Mine 5"])).map((h) => h.noteTopology.id)).not.toContain(mine["Mine 5"]);

    // Moved into another notebook: a search within the first notebook no longer finds it.
    const elsewhere = await injectNotes(learner, [{ Title: "Elsewhere" }]);
    const moved = await learner.post(`/api/notes/move_after/${mine["Mine 6"]}/${elsewhere.Elsewhere}/true`);
    expect(moved.status).toBe(200);
    expect(await notebookOf(mine["Mine 6"]!)).toBe(await notebookOf(elsewhere.Elsewhere!));
    expect((await semantic(learner, textOf(6), mine["Mine 7"])).map((h) => h.noteTopology.id)).not.toContain(mine["Mine 6"]);
    expect(await sqlRow(server, sql`SELECT notebook_id AS n FROM note_embedding_bits WHERE note_id = ${mine["Mine 6"]!}`)).toEqual({
      n: await notebookOf(elsewhere.Elsewhere!),
    });

    // Embeddings of another model are not compared (a model change re-embeds in the background).
    await sqlRun(server, sql`UPDATE note_embeddings SET model = 'another-model' WHERE note_id = ${mine["Mine 8"]!}`);
    expect((await semantic(learner, textOf(8))).map((h) => h.noteTopology.id)).not.toContain(mine["Mine 8"]);
  });
});
