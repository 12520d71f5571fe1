/**
 * The SQLite pieces of semantic search and of the embeddings' bookkeeping: exact cosine distances
 * by sqlite-vec's vec_distance_cosine, id lists passed as one JSON parameter (json_each), and "+"
 * before target_note_id where the notebook index is the selective one. Hot queries run through
 * bun:sqlite's statement cache (sqlite-statements.ts).
 */
import { sql } from "drizzle-orm";
import type { Session, Step } from "../session";
import { cachedAll, cachedOne } from "../sqlite-statements";
import { SEARCH_LIMIT, type SearchHit, type SearchScope } from "./literal-ranking";

/**
 * The candidates ranked by exact cosine distance to `vector` (of `model`, its dimension), at most
 * `maxDistance`; then the first SEARCH_LIMIT of them, in that order, whose notes are still
 * searchable in the scope: undeleted, not links, in the scope's notebooks now, not the excluded
 * note (the binary copy may hold notes deleted or moved since), checked a page at a time: joining
 * every candidate's note cost as much as the ranking itself.
 */
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
  const ranked = (yield* cachedAll<SearchHit>(
    s,
    sql`SELECT ${e.noteId} AS "noteId", vec_distance_cosine(${e.embedding}, ${vector}) AS distance FROM ${e}
       WHERE ${e.noteId} IN (SELECT value FROM json_each(${JSON.stringify(candidates)})) AND ${e.model} = ${model} AND ${e.dimensions} = ${dimensions}
       ORDER BY distance, ${e.noteId}`,
  )).filter((hit) => hit.distance <= maxDistance);
  const notebooks = JSON.stringify(scope.notebookIds);
  const kept: SearchHit[] = [];
  for (let from = 0; from < ranked.length && kept.length < SEARCH_LIMIT; from += SEARCH_LIMIT * 2) {
    const page = ranked.slice(from, from + SEARCH_LIMIT * 2);
    const searchable = yield* cachedAll<{ id: number }>(
      s,
      sql`SELECT ${n.id} FROM ${n} WHERE ${n.id} IN (SELECT value FROM json_each(${JSON.stringify(page.map((hit) => hit.noteId))}))
        AND ${n.notebookId} IN (SELECT value FROM json_each(${notebooks}))
        AND ${n.deletedAt} IS NULL AND ${n.targetNoteId} IS NULL AND ${n.id} <> ${scope.excludeNoteId ?? -1}`,
    );
    const ids = new Set(searchable.map((row) => row.id));
    for (const hit of page) if (ids.has(hit.noteId) && kept.length < SEARCH_LIMIT) kept.push(hit);
  }
  return kept;
}

/** Whether the scope's notebooks hold at most `count` notes (counted up to count + 1 only). */
export function* scopeHoldsAtMost(s: Session, notebookIds: readonly number[], count: number): Step<boolean> {
  const n = s.t.notes;
  const row = yield* cachedOne<{ n: number }>(
    s,
    sql`SELECT count(*) AS n FROM (SELECT 1 FROM ${n} WHERE ${n.notebookId} IN (SELECT value FROM json_each(${JSON.stringify(notebookIds)})) LIMIT ${count + 1})`,
  );
  return (row?.n ?? 0) <= count;
}

/**
 * Every embedding of the scope compared exactly (a dimension the binary index does not hold), the
 * nearest SEARCH_LIMIT at most `maxDistance`: first the scope's undeleted notes (by the notebook
 * index), "+" steering SQLite to it.
 */
export function* exactScan(
  s: Session,
  scope: SearchScope,
  model: string,
  vector: Buffer,
  dimensions: number,
  maxDistance: number,
): Step<SearchHit[]> {
  const { noteEmbeddings: e, notes: n } = s.t;
  const rows = yield* cachedAll<SearchHit>(
    s,
    sql`SELECT ${e.noteId} AS "noteId", vec_distance_cosine(${e.embedding}, ${vector}) AS distance
       FROM ${n} JOIN ${e} ON ${e.noteId} = ${n.id}
       WHERE ${n.notebookId} IN (SELECT value FROM json_each(${JSON.stringify(scope.notebookIds)})) AND ${n.deletedAt} IS NULL AND +${n.targetNoteId} IS NULL
         AND ${n.id} <> ${scope.excludeNoteId ?? -1} AND ${e.model} = ${model} AND ${e.dimensions} = ${dimensions}
       ORDER BY distance, ${n.id} LIMIT ${SEARCH_LIMIT}`,
  );
  return rows.filter((row) => row.distance <= maxDistance);
}

/** The notes' titles and details, and whether each is a link, for presenting hits read without their text. */
export function* noteTexts(s: Session, noteIds: number[]): Step<{ id: number; title: string; details: string; isLink: number }[]> {
  if (noteIds.length === 0) return [];
  const n = s.t.notes;
  return yield* cachedAll(
    s,
    sql`SELECT ${n.id}, ${n.title}, ${n.details}, ${n.targetNoteId} IS NOT NULL AS "isLink" FROM ${n}
      WHERE ${n.id} IN (SELECT value FROM json_each(${JSON.stringify(noteIds)}))`,
  );
}

/**
 * Whether some note that semantic search covers (undeleted, not a link) has no embedding at all.
 * ("+" keeps SQLite on the notes' scan with the embeddings' primary key.)
 */
export function* someNoteUnembedded(s: Session): Step<boolean> {
  const { noteEmbeddings: e, notes: n } = s.t;
  const row = yield* cachedOne<{ one: number }>(
    s,
    sql`SELECT 1 AS one FROM ${n} WHERE ${n.deletedAt} IS NULL AND +${n.targetNoteId} IS NULL
       AND NOT EXISTS (SELECT 1 FROM ${e} WHERE ${e.noteId} = ${n.id}) LIMIT 1`,
  );
  return row !== undefined;
}

/**
 * While jobs of `jobKinds` are queued or running, how many of the notebooks' searchable notes are
 * embedded (and how many there are); undefined when no such job waits.
 */
export function* embeddedCount(
  s: Session,
  notebookIds: readonly number[],
  jobKinds: string[],
): Step<{ total: number; embedded: number } | undefined> {
  const { noteEmbeddings: e, notes: n, jobs } = s.t;
  const pending = yield* cachedOne<{ one: number }>(
    s,
    sql`SELECT 1 AS one FROM ${jobs} WHERE ${jobs.status} IN ('queued', 'running')
      AND ${jobs.kind} IN (SELECT value FROM json_each(${JSON.stringify(jobKinds)})) LIMIT 1`,
  );
  if (!pending) return undefined;
  return yield* cachedOne<{ total: number; embedded: number }>(
    s,
    sql`SELECT count(*) AS total, count(${e.noteId}) AS embedded FROM ${n}
       LEFT JOIN ${e} ON ${e.noteId} = ${n.id}
       WHERE ${n.notebookId} IN (SELECT value FROM json_each(${JSON.stringify(notebookIds)})) AND ${n.deletedAt} IS NULL AND ${n.targetNoteId} IS NULL`,
  );
}

/** Up to `limit` searchable notes (undeleted, not links) after `afterNoteId`, in id order. */
export function* embeddableNotesAfter(s: Session, afterNoteId: number, limit: number): Step<number[]> {
  const n = s.t.notes;
  const rows = yield* cachedAll<{ id: number }>(
    s,
    sql`SELECT ${n.id} FROM ${n} WHERE ${n.id} > ${afterNoteId} AND ${n.deletedAt} IS NULL AND +${n.targetNoteId} IS NULL ORDER BY ${n.id} LIMIT ${limit}`,
  );
  return rows.map((row) => row.id);
}

/** The notebook's searchable notes (undeleted, not links), in id order. */
export function* embeddableNotesOf(s: Session, notebookId: number): Step<number[]> {
  const n = s.t.notes;
  const rows = yield* cachedAll<{ id: number }>(
    s,
    sql`SELECT ${n.id} FROM ${n} WHERE ${n.notebookId} = ${notebookId} AND ${n.deletedAt} IS NULL AND +${n.targetNoteId} IS NULL ORDER BY ${n.id}`,
  );
  return rows.map((row) => row.id);
}
