import { embedTexts } from "../../ai/embeddings";
import { embeddingConfig, embeddingVersion } from "../../ai/settings";
import type { AppContext } from "../../context";
import { embeddingSource, sourceHash, vectorBlob } from "./embedding-source";

/** Notes per embeddings request (the reference's batch size). */
export const EMBEDDING_BATCH_SIZE = 64;

/** Changes of the binary index's log kept for the copies in memory to follow (one further behind loads whole). */
const BITS_CHANGES_KEPT = 100_000;

interface NoteText {
  id: number;
  title: string;
  details: string;
}

/** The ancestor titles of each note, root first, in one recursive query. */
function ancestorTitles(ctx: AppContext, noteIds: number[]): Map<number, string[]> {
  const rows = ctx.sqlite
    .query<{ start_id: number; title: string }, [string]>(
      `WITH RECURSIVE chain(start_id, parent_id, title, depth) AS (
         SELECT n.id, p.parent_id, p.title, 1 FROM notes n JOIN notes p ON p.id = n.parent_id
         WHERE n.id IN (SELECT value FROM json_each(?))
         UNION ALL
         SELECT chain.start_id, p.parent_id, p.title, chain.depth + 1 FROM chain JOIN notes p ON p.id = chain.parent_id
       ) SELECT start_id, title FROM chain ORDER BY start_id, depth DESC`,
    )
    .all(JSON.stringify(noteIds));
  const titles = new Map<number, string[]>();
  for (const row of rows) {
    const list = titles.get(row.start_id) ?? [];
    list.push(row.title);
    titles.set(row.start_id, list);
  }
  return titles;
}

/** The embeddable notes among the ids (not deleted, not links) with the text each would be embedded as. */
function sourcesOf(ctx: AppContext, noteIds: number[]) {
  const notes = ctx.sqlite
    .query<NoteText, [string]>(
      `SELECT id, title, details FROM notes
       WHERE id IN (SELECT value FROM json_each(?)) AND deleted_at IS NULL AND +target_note_id IS NULL ORDER BY id`,
    )
    .all(JSON.stringify(noteIds));
  const paths = ancestorTitles(
    ctx,
    notes.map((n) => n.id),
  );
  return notes.map((note) => ({ id: note.id, source: embeddingSource(note, paths.get(note.id) ?? []) }));
}

/**
 * Embeds the notes whose stored embedding is missing or out of date (another text, model or
 * requested dimension: the source hash names them, embeddingVersion),
 * EMBEDDING_BATCH_SIZE notes per request, and stores the vectors. Deleted notes and links are
 * skipped. Throws what the provider throws (ServiceUnavailableError without one). Answers how
 * many notes were embedded.
 */
export async function embedNotes(ctx: AppContext, noteIds: number[]): Promise<number> {
  const unique = [...new Set(noteIds)];
  let embedded = 0;
  for (let i = 0; i < unique.length; i += EMBEDDING_BATCH_SIZE) {
    embedded += await embedBatch(ctx, unique.slice(i, i + EMBEDDING_BATCH_SIZE));
  }
  return embedded;
}

async function embedBatch(ctx: AppContext, noteIds: number[]): Promise<number> {
  const config = embeddingConfig(ctx);
  const version = embeddingVersion(config);
  const current = new Map(
    ctx.sqlite
      .query<{ note_id: number; source_hash: string }, [string]>(
        "SELECT note_id, source_hash FROM note_embeddings WHERE note_id IN (SELECT value FROM json_each(?))",
      )
      .all(JSON.stringify(noteIds))
      .map((row) => [row.note_id, row.source_hash]),
  );
  const stale = sourcesOf(ctx, noteIds)
    .map((note) => ({ ...note, hash: sourceHash(version, note.source) }))
    .filter((note) => current.get(note.id) !== note.hash);
  if (stale.length === 0) return 0;
  const { model: usedModel, vectors } = await embedTexts(
    ctx,
    stale.map((note) => note.source),
    config,
  );
  const now = ctx.clock.now().getTime();
  // The note may have gone meanwhile (deleted for good, or a test reset): store only for existing notes.
  const upsert = ctx.sqlite.query(
    `INSERT INTO note_embeddings (note_id, model, dimensions, embedding, source_hash, updated_at)
     SELECT ?1, ?2, ?3, ?4, ?5, ?6 WHERE EXISTS (SELECT 1 FROM notes WHERE id = ?1)
     ON CONFLICT (note_id) DO UPDATE SET model = excluded.model, dimensions = excluded.dimensions,
       embedding = excluded.embedding, source_hash = excluded.source_hash, updated_at = excluded.updated_at`,
  );
  ctx.sqlite.transaction(() => {
    stale.forEach((note, i) => {
      const vector = vectors[i]!;
      upsert.run(note.id, usedModel, vector.length, vectorBlob(vector), note.hash, now);
    });
  })();
  await ctx.stores.binaryIndex.prune(BITS_CHANGES_KEPT);
  return stale.length;
}
