import { embedTexts } from "../../ai/embeddings";
import type { AppContext } from "../../context";
import type { SearchHit, SearchScope } from "../../store/search/search-store";
import { binaryIndexNeedsLoad, binaryIndexSupports, hammingCandidates } from "./binary-index";
import { searchKeySource, vectorBlob } from "./embedding-source";

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
 * and ranked exactly by the search store: undeleted, not links, in the scope's notebooks now, of
 * the current model and the key's dimension, by their exact cosine distance. Throws what the provider throws
 * (ServiceUnavailableError without one).
 */
export async function semanticSearch(ctx: AppContext, scope: SearchScope, searchKey: string): Promise<SearchHit[]> {
  const key = searchKeySource(searchKey);
  if (!key || scope.notebookIds.length === 0) return [];
  const { model, vectors } = await embedTexts(ctx, [key]);
  const query = vectors[0]!;
  const search = ctx.stores.search;
  if (!binaryIndexSupports(query.length)) return search.exactScan(scope, model, vectorBlob(query), query.length, MAX_SEMANTIC_DISTANCE);
  // A scope of at most SEMANTIC_CANDIDATES notes is compared whole either way: while no copy is in
  // memory yet (the first search, or a new model), the exact scan of those few notes answers the
  // same, without loading every note's bits for it.
  if (binaryIndexNeedsLoad(ctx, model, query.length) && (await search.scopeHoldsAtMost(scope.notebookIds, SEMANTIC_CANDIDATES))) {
    return search.exactScan(scope, model, vectorBlob(query), query.length, MAX_SEMANTIC_DISTANCE);
  }
  const candidates = await hammingCandidates(ctx, model, query, scope.notebookIds, SEMANTIC_CANDIDATES);
  if (candidates.length === 0) return [];
  // Ranked by the exact distance first, from the embeddings alone; then only the nearest are
  // checked against their notes, a page at a time.
  return search.rankCandidates(scope, candidates, model, vectorBlob(query), query.length, MAX_SEMANTIC_DISTANCE);
}
