/**
 * The PostgreSQL pieces of semantic search and of the embeddings' bookkeeping, twins of
 * semantic-sqlite.ts. Plain PostgreSQL has no vector functions (pgvector is not assumed): the exact
 * re-rank reads the candidates' float32 vectors (bytea) and computes their cosine distances here,
 * as sqlite-vec's vec_distance_cosine does (float32 sums, the result rounded to float32), so both
 * databases rank alike. The candidates come from the per-process binary index either way.
 */
import { and, count, eq, gt, inArray, isNull, ne, sql } from "drizzle-orm";
import { all, inIds, one, type Session, type Step } from "../session";
import { SEARCH_LIMIT, type SearchHit, type SearchScope } from "./literal-ranking";

const f = Math.fround;

/** A float32 little-endian vector as numbers (a bytea's Buffer may start at any byte). */
function floats(bytes: Uint8Array): Float32Array {
  if (bytes.byteOffset % 4 === 0) return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >>> 2);
  return new Float32Array(bytes.slice().buffer, 0, bytes.byteLength >>> 2);
}

/** sqlite-vec's vec_distance_cosine: 1 - cos(a, b), with its float32 arithmetic. */
export function cosineDistance(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let aMag = 0;
  let bMag = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    dot = f(dot + f(x * y));
    aMag = f(aMag + f(x * x));
    bMag = f(bMag + f(y * y));
  }
  return f(1 - dot / (Math.sqrt(aMag) * Math.sqrt(bMag)));
}

/** Each row's distance to the vector, at most `maxDistance`, nearest first (then by note id). */
function nearest(rows: { noteId: number; embedding: Uint8Array }[], vector: Buffer, maxDistance: number): SearchHit[] {
  const query = floats(vector);
  return rows
    .map((row) => ({ noteId: row.noteId, distance: cosineDistance(floats(row.embedding), query) }))
    .filter((hit) => hit.distance <= maxDistance)
    .sort((a, b) => a.distance - b.distance || a.noteId - b.noteId);
}

/** Undeleted, not a link, in the scope's notebooks, not the excluded note. */
function searchable(s: Session, scope: SearchScope) {
  const n = s.t.notes;
  return and(inIds(s, n.notebookId, scope.notebookIds), isNull(n.deletedAt), isNull(n.targetNoteId), ne(n.id, scope.excludeNoteId ?? -1));
}

/** See semantic-sqlite.ts's rankCandidates: the same hits, the distances computed here. */
export function* rankCandidates(
  s: Session,
  scope: SearchScope,
  candidates: number[],
  model: string,
  vector: Buffer,
  dimensions: number,
  maxDistance: number,
): Step<SearchHit[]> {
  const { noteEmbeddings: e, notes: n } = s.t;
  if (candidates.length === 0 || scope.notebookIds.length === 0) return [];
  const rows = yield* all(
    s,
    s.db
      .select({ noteId: e.noteId, embedding: e.embedding })
      .from(e)
      .where(and(inArray(e.noteId, candidates), eq(e.model, model), eq(e.dimensions, dimensions))),
  );
  const ranked = nearest(rows, vector, maxDistance);
  const kept: SearchHit[] = [];
  for (let from = 0; from < ranked.length && kept.length < SEARCH_LIMIT; from += SEARCH_LIMIT * 2) {
    const page = ranked.slice(from, from + SEARCH_LIMIT * 2);
    const found = yield* all(
      s,
      s.db
        .select({ id: n.id })
        .from(n)
        .where(
          and(
            inArray(
              n.id,
              page.map((hit) => hit.noteId),
            ),
            searchable(s, scope),
          ),
        ),
    );
    const ids = new Set(found.map((row) => row.id));
    for (const hit of page) if (ids.has(hit.noteId) && kept.length < SEARCH_LIMIT) kept.push(hit);
  }
  return kept;
}

/** Whether the scope's notebooks hold at most `count` notes (counted up to count + 1 only). */
export function* scopeHoldsAtMost(s: Session, notebookIds: readonly number[], count: number): Step<boolean> {
  if (notebookIds.length === 0) return true;
  const n = s.t.notes;
  const rows = yield* all(
    s,
    s.db
      .select({ id: n.id })
      .from(n)
      .where(inIds(s, n.notebookId, notebookIds))
      .limit(count + 1),
  );
  return rows.length <= count;
}

/** Every embedding of the scope compared exactly (a dimension the binary index does not hold), the nearest SEARCH_LIMIT. */
export function* exactScan(
  s: Session,
  scope: SearchScope,
  model: string,
  vector: Buffer,
  dimensions: number,
  maxDistance: number,
): Step<SearchHit[]> {
  if (scope.notebookIds.length === 0) return [];
  const { noteEmbeddings: e, notes: n } = s.t;
  const rows = yield* all(
    s,
    s.db
      .select({ noteId: e.noteId, embedding: e.embedding })
      .from(n)
      .innerJoin(e, eq(e.noteId, n.id))
      .where(and(searchable(s, scope), eq(e.model, model), eq(e.dimensions, dimensions))),
  );
  return nearest(rows, vector, maxDistance).slice(0, SEARCH_LIMIT);
}

/** The notes' titles and details, and whether each is a link (1 or 0, as SQLite answers). */
export function* noteTexts(s: Session, noteIds: number[]): Step<{ id: number; title: string; details: string; isLink: number }[]> {
  if (noteIds.length === 0) return [];
  const n = s.t.notes;
  return yield* all(
    s,
    s.db
      .select({ id: n.id, title: n.title, details: n.details, isLink: sql<number>`(${n.targetNoteId} IS NOT NULL)::int` })
      .from(n)
      .where(inArray(n.id, noteIds)),
  );
}

/** Whether some note that semantic search covers (undeleted, not a link) has no embedding at all. */
export function* someNoteUnembedded(s: Session): Step<boolean> {
  const { noteEmbeddings: e, notes: n } = s.t;
  const row = yield* one(
    s,
    s.db
      .select({ id: n.id })
      .from(n)
      .where(and(isNull(n.deletedAt), isNull(n.targetNoteId), sql`NOT EXISTS (SELECT 1 FROM ${e} WHERE ${e.noteId} = ${n.id})`))
      .limit(1),
  );
  return row !== undefined;
}

/** While jobs of `jobKinds` are queued or running, how many of the notebooks' searchable notes are embedded (and how many there are). */
export function* embeddedCount(
  s: Session,
  notebookIds: readonly number[],
  jobKinds: string[],
): Step<{ total: number; embedded: number } | undefined> {
  const { noteEmbeddings: e, notes: n, jobs } = s.t;
  if (jobKinds.length === 0) return undefined;
  const pending = yield* one(
    s,
    s.db
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(inArray(jobs.status, ["queued", "running"]), inArray(jobs.kind, jobKinds)))
      .limit(1),
  );
  if (!pending) return undefined;
  if (notebookIds.length === 0) return { total: 0, embedded: 0 };
  return yield* one(
    s,
    s.db
      .select({ total: count(), embedded: count(e.noteId) })
      .from(n)
      .leftJoin(e, eq(e.noteId, n.id))
      .where(and(inIds(s, n.notebookId, notebookIds), isNull(n.deletedAt), isNull(n.targetNoteId))),
  );
}

/** Up to `limit` searchable notes (undeleted, not links) after `afterNoteId`, in id order. */
export function* embeddableNotesAfter(s: Session, afterNoteId: number, limit: number): Step<number[]> {
  const n = s.t.notes;
  const rows = yield* all(
    s,
    s.db
      .select({ id: n.id })
      .from(n)
      .where(and(gt(n.id, afterNoteId), isNull(n.deletedAt), isNull(n.targetNoteId)))
      .orderBy(n.id)
      .limit(limit),
  );
  return rows.map((row) => row.id);
}

/** The notebook's searchable notes (undeleted, not links), in id order. */
export function* embeddableNotesOf(s: Session, notebookId: number): Step<number[]> {
  const n = s.t.notes;
  const rows = yield* all(
    s,
    s.db
      .select({ id: n.id })
      .from(n)
      .where(and(eq(n.notebookId, notebookId), isNull(n.deletedAt), isNull(n.targetNoteId)))
      .orderBy(n.id),
  );
  return rows.map((row) => row.id);
}
