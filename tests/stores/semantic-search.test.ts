/**
 * Semantic search on both databases: the per-process binary index (loaded, then following the
 * logged changes) picks candidates, and the search store re-ranks them by exact cosine distance
 * (sqlite-vec on SQLite, computed from the stored vectors on PostgreSQL): the same hits in the same
 * order on a small fixed set of embeddings, and the embeddings' bookkeeping reads.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import type { AppContext } from "../../src/context";
import { InstanceState } from "../../src/instance-state";
import { binaryIndexContents, hammingCandidates, quantizeBinary } from "../../src/services/search/binary-index";
import { vectorBlob } from "../../src/services/search/embedding-source";
import type { SearchScope } from "../../src/store/search/literal-ranking";
import { cosineDistance } from "../../src/store/search/semantic-postgres";
import { all, run, type Session, type Step } from "../../src/store/session";
import { databaseUnderTestOfFile } from "../support/database-under-test";
import { note, notebook, user } from "./seed";

const under = databaseUnderTestOfFile();
const write = <T>(body: (s: Session) => Step<T>) => under.database.write(body);

const MODEL = "test-embedding";
const DIMENSIONS = 32;
const MAX_DISTANCE = 0.75;

/** A fixed pseudo-random unit-free vector (a small linear congruential generator). */
function vectorOf(seed: number, towards?: Float32Array, weight = 0): Float32Array {
  let x = seed * 7919 + 17;
  const out = new Float32Array(DIMENSIONS);
  for (let i = 0; i < DIMENSIONS; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const noise = x / 1073741824 - 1;
    out[i] = towards ? towards[i]! * weight + noise * (1 - weight) : noise;
  }
  return out;
}

const QUERY = vectorOf(1);
/** Notes nearer and nearer the query: "n0" is noise, "n9" nearly the query itself. */
const NEAR = Array.from({ length: 10 }, (_, k) => ({ title: `n${k}`, vector: vectorOf(100 + k, QUERY, k / 10) }));

/** Cosine distance in double precision: the expected order. */
function distance(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    aa += a[i]! * a[i]!;
    bb += b[i]! * b[i]!;
  }
  return 1 - dot / Math.sqrt(aa * bb);
}

let scope: SearchScope;
const titles = new Map<number, string>();
const idOf = (title: string) => [...titles].find(([, t]) => t === title)![0];
let otherNotebook: number;
let excludedByDeletion: number;
let linkId: number;
/** A context with the stores and this test's own instance state (its own binary index copy). */
const process = () => ({ stores: under.stores, state: new InstanceState() }) as unknown as AppContext;

beforeAll(async () => {
  const made = await write(function* (s) {
    const ann = yield* user(s, "semantic-ann");
    const book = yield* notebook(s, ann.userId, "Vectors");
    const other = yield* notebook(s, ann.userId, "Other");
    const ids: number[] = [];
    for (const { title } of NEAR) ids.push(yield* note(s, book.notebookId, book.headNoteId, title));
    const gone = yield* note(s, book.notebookId, book.headNoteId, "deleted twin of n9");
    const elsewhere = yield* note(s, other.notebookId, other.headNoteId, "elsewhere twin of n9");
    const [link] = yield* all(
      s,
      s.db
        .insert(s.t.notes)
        .values({
          notebookId: book.notebookId,
          parentId: ids[0]!,
          targetNoteId: ids[1]!,
          title: "link",
          siblingOrder: 1,
          createdAt: new Date(0),
          updatedAt: new Date(0),
        })
        .returning({ id: s.t.notes.id }),
    );
    return { book, other, ids, gone, elsewhere, link: link!.id };
  });
  for (const [k, { title }] of NEAR.entries()) titles.set(made.ids[k]!, title);
  titles.set(made.gone, "deleted twin of n9");
  titles.set(made.elsewhere, "elsewhere twin of n9");
  titles.set(made.link, "link");
  const embeddings = [
    ...NEAR.map(({ vector }, k) => ({ noteId: made.ids[k]!, vector })),
    { noteId: made.gone, vector: NEAR[9]!.vector },
    { noteId: made.elsewhere, vector: NEAR[9]!.vector },
    // A link note is never a hit, however near.
    { noteId: made.link, vector: QUERY },
  ];
  await under.stores.search.storeEmbeddings(
    embeddings.map(({ noteId, vector }) => ({
      noteId,
      model: MODEL,
      dimensions: DIMENSIONS,
      embedding: vectorBlob(vector),
      sourceHash: "h",
    })),
    1000,
    0,
  );
  await write(function* (s) {
    yield* run(
      s,
      s.db
        .update(s.t.notes)
        .set({ deletedAt: new Date(1) })
        .where(eq(s.t.notes.id, made.gone)),
    );
  });
  scope = { notebookIds: [made.book.notebookId] };
  otherNotebook = made.other.notebookId;
  excludedByDeletion = made.gone;
  linkId = made.link;
});

/** The expected hits: the scope's embedded notes within MAX_DISTANCE, nearest first. */
function expected(exclude?: string) {
  return NEAR.filter(({ title }) => title !== exclude)
    .map(({ title, vector }) => ({ title, distance: distance(vector, QUERY) }))
    .filter((hit) => hit.distance <= MAX_DISTANCE)
    .sort((a, b) => a.distance - b.distance);
}

describe("semantic search", () => {
  test("the binary index's candidates, re-ranked exactly: the nearest notes in order, at sqlite-vec's distances", async () => {
    const ctx = process();
    const candidates = await hammingCandidates(ctx, MODEL, QUERY, scope.notebookIds, 1000);
    // Every note of the scope with bits: the deleted one and the link too (the re-rank checks the notes).
    expect(candidates.map((id) => titles.get(id)).sort()).toEqual([...NEAR.map(({ title }) => title), "deleted twin of n9", "link"].sort());
    const hits = await under.stores.search.rankCandidates(scope, candidates, MODEL, vectorBlob(QUERY), DIMENSIONS, MAX_DISTANCE);
    const want = expected();
    expect(want.length).toBeGreaterThan(3);
    expect(want.length).toBeLessThan(NEAR.length);
    expect(hits.map((hit) => titles.get(hit.noteId))).toEqual(want.map((hit) => hit.title));
    for (const [i, hit] of hits.entries()) expect(hit.distance).toBeCloseTo(want[i]!.distance, 5);
    // To the bit, sqlite-vec's float32 distance: computed by the database on SQLite, here on PostgreSQL.
    const vectors = new Map(NEAR.map(({ title, vector }) => [title, vector]));
    expect(hits.map((hit) => hit.distance)).toEqual(hits.map((hit) => cosineDistance(vectors.get(titles.get(hit.noteId)!)!, QUERY)));
    // The exact scan (a dimension the index does not hold) answers the same.
    expect(await under.stores.search.exactScan(scope, MODEL, vectorBlob(QUERY), DIMENSIONS, MAX_DISTANCE)).toEqual(hits);
    // Fewer candidates: the nearest by Hamming distance, still ranked exactly.
    const few = await hammingCandidates(ctx, MODEL, QUERY, scope.notebookIds, 3);
    expect(few.length).toBeGreaterThanOrEqual(3);
    expect(few).toContain(idOf("n9"));
  });

  test("the excluded note, other notebooks, other models and dimensions are left out", async () => {
    const candidates = [...titles.keys()];
    const excluded = await under.stores.search.rankCandidates(
      { ...scope, excludeNoteId: idOf("n9") },
      candidates,
      MODEL,
      vectorBlob(QUERY),
      DIMENSIONS,
      MAX_DISTANCE,
    );
    expect(excluded.map((hit) => titles.get(hit.noteId))).toEqual(expected("n9").map((hit) => hit.title));
    const elsewhere = await under.stores.search.exactScan(
      { notebookIds: [otherNotebook] },
      MODEL,
      vectorBlob(QUERY),
      DIMENSIONS,
      MAX_DISTANCE,
    );
    expect(elsewhere.map((hit) => titles.get(hit.noteId))).toEqual(["elsewhere twin of n9"]);
    expect(
      await under.stores.search.rankCandidates(scope, candidates, "another-model", vectorBlob(QUERY), DIMENSIONS, MAX_DISTANCE),
    ).toEqual([]);
    expect(await under.stores.search.exactScan(scope, MODEL, vectorBlob(QUERY.subarray(0, 16)), 16, MAX_DISTANCE)).toEqual([]);
  });

  test("a process's copy follows an embedding changed through the store, and holds what the triggers quantised", async () => {
    const ctx = process();
    await hammingCandidates(ctx, MODEL, QUERY, scope.notebookIds, 1000);
    const n0 = idOf("n0");
    const moved = vectorOf(1, QUERY, 0.95);
    await under.stores.search.storeEmbeddings(
      [{ noteId: n0, model: MODEL, dimensions: DIMENSIONS, embedding: vectorBlob(moved), sourceHash: "h2" }],
      1000,
      0,
    );
    const contents = new Map((await binaryIndexContents(ctx, MODEL, DIMENSIONS)).map(([noteId, , hex]) => [noteId, hex]));
    const hex = (vector: Float32Array) => Buffer.from(quantizeBinary(vector).buffer).toString("hex");
    expect(contents.get(n0)).toBe(hex(moved));
    expect(contents.get(idOf("n5"))).toBe(hex(NEAR[5]!.vector));
    expect(contents.has(excludedByDeletion)).toBe(true);
    const hits = await under.stores.search.rankCandidates(scope, [...contents.keys()], MODEL, vectorBlob(QUERY), DIMENSIONS, MAX_DISTANCE);
    expect(titles.get(hits[0]!.noteId)).toBe("n0");
    // Back as it was, for the other tests.
    await under.stores.search.storeEmbeddings(
      [{ noteId: n0, model: MODEL, dimensions: DIMENSIONS, embedding: vectorBlob(NEAR[0]!.vector), sourceHash: "h" }],
      1000,
      0,
    );
  });
});

describe("the embeddings' bookkeeping", () => {
  test("texts, unembedded notes, counts while embedding, embeddable notes", async () => {
    const search = under.stores.search;
    const n1 = idOf("n1");
    expect(await search.noteTexts([n1, linkId])).toEqual(
      expect.arrayContaining([
        { id: n1, title: "n1", details: "", isLink: 0 },
        { id: linkId, title: "link", details: "", isLink: 1 },
      ]),
    );
    // Every note counts here (head, n0..n9, the deleted note, the link): 13.
    expect(await search.scopeHoldsAtMost(scope.notebookIds, 13)).toBe(true);
    expect(await search.scopeHoldsAtMost(scope.notebookIds, 12)).toBe(false);
    // The notebooks' head notes have no embedding.
    expect(await search.someNoteUnembedded()).toBe(true);
    expect(await search.embeddedCount(scope.notebookIds, ["embed-notes"])).toBeUndefined();
    await under.stores.jobs.enqueue({ kind: "embed-notes", payloads: ["{}"], runAt: 0, dedupe: false }, 0);
    // Head, n0..n9: 11 searchable notes, 10 embedded (the deleted note and the link are not counted).
    expect(await search.embeddedCount(scope.notebookIds, ["embed-notes", "other"])).toEqual({ total: 11, embedded: 10 });
    const embeddable = await search.embeddableNotesOf(scope.notebookIds[0]!);
    expect(embeddable.map((id) => titles.get(id) ?? "head")).toEqual(["head", ...NEAR.map(({ title }) => title)]);
    expect(await search.embeddableNotesAfter(idOf("n0"), 3)).toEqual(["n1", "n2", "n3"].map(idOf));
    expect(embeddable).not.toContain(linkId);
    expect(embeddable).not.toContain(excludedByDeletion);
  });
});
