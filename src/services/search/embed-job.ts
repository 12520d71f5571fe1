import { isAiConfigured } from "../../ai/client";
import { embeddingConfig, embeddingVersion } from "../../ai/settings";
import type { AppContext } from "../../context";
import { enqueue } from "../../jobs/queue";
import { defineJob, defineRelay, exponentialBackoff } from "../../jobs/registry";
import { EMBEDDING_BATCH_SIZE, embedNotes } from "./note-embeddings";

/**
 * Wait before embedding a changed note: autosave sends a title or details change about every
 * second while someone types, and the queued job (deduplicated) embeds the latest text once.
 */
export const EMBED_DELAY_MS = 3000;

/** "embed-note" {noteId}: embeds the note's path, title and details when they changed. */
export const embedNoteJob = defineJob<{ noteId: number }>({
  kind: "embed-note",
  attempts: 5,
  // 15 s, 1 min, 4 min, 16 min between the five attempts.
  backoff: exponentialBackoff(15_000, 4, 60 * 60_000),
  batchSize: EMBEDDING_BATCH_SIZE,
  async perform(ctx, payloads) {
    // The provider went away after the job was queued: "Update index" catches up later.
    if (!isAiConfigured(ctx)) return;
    await embedNotes(
      ctx,
      payloads.map((payload) => payload.noteId),
    );
  },
});

/**
 * Every change of a note's text or place is recorded by the database itself (the note_changes
 * outbox, filled by triggers in the writer's transaction): the job worker relays the recorded
 * changes as embedding jobs before each run, for the note and, after a rename or a move, every
 * descendant. Without an AI provider the changes are dropped ("Update index" catches up later).
 */
defineRelay("note changes to embeddings", async (ctx, { immediate }) => {
  const now = ctx.clock.now().getTime();
  const target = { embedKind: isAiConfigured(ctx) ? embedNoteJob.kind : null, runAt: immediate ? now : now + EMBED_DELAY_MS };
  while ((await ctx.stores.noteChanges.relay(target, now)) > 0);
});

/** Notes one "reembed-notes" job takes (four embedding requests), in id order. */
export const REEMBED_CHUNK = EMBEDDING_BATCH_SIZE * 4;

/**
 * "reembed-notes" {version, afterNoteId}: after the embedding model or dimension changed, embeds
 * the next REEMBED_CHUNK notes (undeleted, not links) after afterNoteId whose embedding is not of
 * `version` (embeddingVersion), then queues itself for the chunk after; one chunk at a time, so the
 * queue stays short and the job resumes where it was after a restart. Search meanwhile compares
 * the key only with notes already embedded with the new model and dimension. A chain whose
 * version is no longer the current one stops (the change that made the new one queued its own).
 */
export const reembedNotesJob = defineJob<{ version: string; afterNoteId: number }>({
  kind: "reembed-notes",
  attempts: 5,
  backoff: exponentialBackoff(15_000, 4, 60 * 60_000),
  async perform(ctx, payloads) {
    if (!isAiConfigured(ctx)) return;
    for (const { version, afterNoteId } of payloads) {
      if (version !== embeddingVersion(await embeddingConfig(ctx))) continue;
      const ids = await ctx.stores.search.embeddableNotesAfter(afterNoteId, REEMBED_CHUNK);
      if (ids.length === 0) continue;
      await embedNotes(ctx, ids);
      await enqueue(ctx, reembedNotesJob, { version, afterNoteId: ids.at(-1)! });
    }
  },
});

/**
 * Call after the embedding model or requested dimension changed: queues the re-embedding of every
 * note in the background (reembedNotesJob). Does nothing without an AI provider.
 */
export async function embeddingSettingsChanged(ctx: AppContext) {
  if (!isAiConfigured(ctx)) return;
  await enqueue(ctx, reembedNotesJob, { version: embeddingVersion(await embeddingConfig(ctx)), afterNoteId: 0 });
}
