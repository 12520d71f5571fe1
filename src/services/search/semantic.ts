import type { AppContext } from "../../context";
import { embedTexts } from "../../ai/embeddings";
import { searchKeySource, vectorBlob } from "./embedding-source";
import { SEARCH_LIMIT, type SearchHit } from "./literal";
import type { SearchScope } from "./scope";

/**
 * Farthest semantic hit kept, in cosine distance (1 - cosine similarity, 0 to 2): 0.75 keeps
 * cosine >= 0.25, the reference's cut-off (squared L2 <= 1.5 on unit vectors).
 */
export const MAX_SEMANTIC_DISTANCE = 0.75;

/**
 * Embeds the search key and answers the nearest notes by cosine distance: first the scope's
 * undeleted notes (by the notebook index), then their embeddings of the current model and the
 * key's dimension, compared with sqlite-vec's vec_distance_cosine ("+" steers SQLite to the
 * notebook index, not the target_note_id one). Throws what the provider
 * throws (ServiceUnavailableError without one).
 */
export async function semanticSearch(ctx: AppContext, scope: SearchScope, searchKey: string): Promise<SearchHit[]> {
  const key = searchKeySource(searchKey);
  if (!key || scope.notebookIds.length === 0) return [];
  const { model, vectors } = await embedTexts(ctx, [key]);
  const query = vectors[0]!;
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
