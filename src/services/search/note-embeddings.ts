import { embedTexts } from "../../ai/embeddings";
import { embeddingConfig, embeddingVersion } from "../../ai/settings";
import type { AppContext } from "../../context";
import { embeddingSource, sourceHash, vectorBlob } from "./embedding-source";

/** Notes per embeddings request (the reference's batch size). */
export const EMBEDDING_BATCH_SIZE = 64;

/** Changes of the binary index's log kept for the copies in memory to follow (one further behind loads whole). */
const BITS_CHANGES_KEPT = 100_000;

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
  const config = await embeddingConfig(ctx);
  const version = embeddingVersion(config);
  const stale = (await ctx.stores.search.embeddingSources(noteIds))
    .map((note) => {
      const source = embeddingSource(note, note.ancestorTitles);
      return { id: note.id, source, hash: sourceHash(version, source), currentHash: note.currentHash };
    })
    .filter((note) => note.currentHash !== note.hash);
  if (stale.length === 0) return 0;
  const { model: usedModel, vectors } = await embedTexts(
    ctx,
    stale.map((note) => note.source),
    config,
  );
  const embeddings = stale.map((note, i) => {
    const vector = vectors[i]!;
    return { noteId: note.id, model: usedModel, dimensions: vector.length, embedding: vectorBlob(vector), sourceHash: note.hash };
  });
  // The note may have gone meanwhile (deleted for good, or a test reset): the store keeps only existing notes'.
  await ctx.stores.search.storeEmbeddings(embeddings, BITS_CHANGES_KEPT, ctx.clock.now().getTime());
  return stale.length;
}
