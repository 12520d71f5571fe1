import { embedTexts } from "../../ai/embeddings";
import type { AppContext } from "../../context";
import { binaryIndexNeedsLoad, binaryIndexSupports, hammingCandidates } from "./binary-index";
import { searchKeySource, vectorBlob } from "./embedding-source";
import { SEARCH_LIMIT, type SearchHit } from "./literal";
import type { SearchScope } from "./scope";

/**
 * Farthest semantic hit kept, in cosine distance (1 - cosine similarity, 0 to 2): 0.75 keeps
 * cosine >= 0.25, the reference's cut-off (squared L2 <= 1.5 on unit vectors).
 */
export const MAX_SEMANTIC_DISTANCE = 0.75;

/**
 * Candidates taken by Hamming distance before the exact re-rank. At 384 dimensions 400 of 100,000
 * notes gave recall@10 0.93 against the exact ranking in the bench (scripts/bench/search.ts);
 * re-ranking 1,000 costs a few milliseconds more.
 */
export const SEMANTIC_CANDIDATES = 1000;

/**
 * Embeds the search key and answers the nearest notes by cosine distance. The candidates come
 * from the binary-quantised copy of the scope's embeddings (binary-index.ts: the nearest
 * SEMANTIC_CANDIDATES by Hamming distance, or all of them in a small scope); they are then checked
 * and ranked exactly here: undeleted, not links, in the scope's notebooks now, of the current model
 * and the key's dimension, by sqlite-vec's vec_distance_cosine. Throws what the provider throws
 * (ServiceUnavailableError without one).
 */
export async function semanticSearch(ctx: AppContext, scope: SearchScope, searchKey: string): Promise<SearchHit[]> {
  const key = searchKeySource(searchKey);
  if (!key || scope.notebookIds.length === 0) return [];
  const { model, vectors } = await embedTexts(ctx, [key]);
  const query = vectors[0]!;
  if (!binaryIndexSupports(query.length)) return exactScan(ctx, scope, model, query);
  // A scope of at most SEMANTIC_CANDIDATES notes is compared whole either way: while no copy is in
  // memory yet (the first search, or a new model), the exact scan of those few notes answers the
  // same, without loading every note's bits for it.
  if (binaryIndexNeedsLoad(ctx, model, query.length) && scopeHoldsAtMost(ctx, scope, SEMANTIC_CANDIDATES)) {
    return exactScan(ctx, scope, model, query);
  }
  const candidates = await hammingCandidates(ctx, model, query, scope.notebookIds, SEMANTIC_CANDIDATES);
  if (candidates.length === 0) return [];
  // Ranked by the exact distance first, from the embeddings alone; then only the nearest are
  // checked against their notes, a page at a time: joining every candidate's note cost as much
  // as the ranking itself.
  const ranked = ctx.sqlite
    .query<{ noteId: number; distance: number }, [Buffer, string, string, number]>(
      `SELECT note_id AS noteId, vec_distance_cosine(embedding, ?1) AS distance FROM note_embeddings
       WHERE note_id IN (SELECT value FROM json_each(?2)) AND model = ?3 AND dimensions = ?4
       ORDER BY distance, note_id`,
    )
    .all(vectorBlob(query), JSON.stringify(candidates), model, query.length);
  return keepSearchable(
    ctx,
    scope,
    ranked.filter((hit) => hit.distance <= MAX_SEMANTIC_DISTANCE),
  );
}

/**
 * The first SEARCH_LIMIT hits, in their order, whose notes are still searchable in the scope:
 * undeleted, not links, in the scope's notebooks now, not the excluded note (the binary copy may
 * hold notes deleted or moved since).
 */
function keepSearchable(ctx: AppContext, scope: SearchScope, ranked: SearchHit[]): SearchHit[] {
  const searchable = ctx.sqlite.query<{ id: number }, [string, string, number]>(
    `SELECT id FROM notes WHERE id IN (SELECT value FROM json_each(?1)) AND notebook_id IN (SELECT value FROM json_each(?2))
       AND deleted_at IS NULL AND target_note_id IS NULL AND id <> ?3`,
  );
  const notebooks = JSON.stringify(scope.notebookIds);
  const kept: SearchHit[] = [];
  for (let from = 0; from < ranked.length && kept.length < SEARCH_LIMIT; from += SEARCH_LIMIT * 2) {
    const page = ranked.slice(from, from + SEARCH_LIMIT * 2);
    const ids = new Set(
      searchable.all(JSON.stringify(page.map((hit) => hit.noteId)), notebooks, scope.excludeNoteId ?? -1).map((row) => row.id),
    );
    for (const hit of page) if (ids.has(hit.noteId) && kept.length < SEARCH_LIMIT) kept.push(hit);
  }
  return kept;
}

/** Whether the scope's notebooks hold at most `count` notes (counted up to count + 1 only). */
function scopeHoldsAtMost(ctx: AppContext, scope: SearchScope, count: number): boolean {
  const { n } = ctx.sqlite
    .query<{ n: number }, [string, number]>(
      "SELECT count(*) AS n FROM (SELECT 1 FROM notes WHERE notebook_id IN (SELECT value FROM json_each(?1)) LIMIT ?2)",
    )
    .get(JSON.stringify(scope.notebookIds), count + 1)!;
  return n <= count;
}

/**
 * Every embedding of the scope compared exactly (a dimension the binary index does not hold):
 * first the scope's undeleted notes (by the notebook index), "+" steering SQLite to it.
 */
function exactScan(ctx: AppContext, scope: SearchScope, model: string, query: Float32Array): SearchHit[] {
  const rows = ctx.sqlite
    .query<{ noteId: number; distance: number }, [Buffer, string, number, string, number, number]>(
      `SELECT e.note_id AS noteId, vec_distance_cosine(e.embedding, ?1) AS distance
       FROM notes n JOIN note_embeddings e ON e.note_id = n.id
       WHERE n.notebook_id IN (SELECT value FROM json_each(?2)) AND n.deleted_at IS NULL AND +n.target_note_id IS NULL
         AND n.id <> ?3 AND e.model = ?4 AND e.dimensions = ?5
       ORDER BY distance, n.id LIMIT ?6`,
    )
    .all(vectorBlob(query), JSON.stringify(scope.notebookIds), scope.excludeNoteId ?? -1, model, query.length, SEARCH_LIMIT);
  return rows.filter((row) => row.distance <= MAX_SEMANTIC_DISTANCE);
}
