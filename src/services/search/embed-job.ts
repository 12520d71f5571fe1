import type { AppContext } from "../../context";
import { isAiConfigured } from "../../ai/client";
import { enqueueMany } from "../../jobs/queue";
import { defineJob, exponentialBackoff } from "../../jobs/registry";
import { descendantIds } from "../notes/rows";
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
    await embedNotes(ctx, payloads.map((payload) => payload.noteId));
  },
});

/**
 * Call after a note's title or details changed, or notes were created (in or right after the
 * transaction that changed them): queues their embedding. Does nothing without an AI provider.
 */
export function noteTextChanged(ctx: AppContext, noteIds: number | number[]) {
  if (!isAiConfigured(ctx)) return;
  const ids = Array.isArray(noteIds) ? noteIds : [noteIds];
  enqueueMany(ctx, embedNoteJob, ids.map((noteId) => ({ noteId })), { delayMs: EMBED_DELAY_MS });
}

/**
 * Call after a note's title changed or the note moved: its descendants' paths changed too, so
 * the note and every descendant are queued (notes whose text did not change are skipped cheaply).
 */
export function notePathChanged(ctx: AppContext, noteId: number) {
  if (!isAiConfigured(ctx)) return;
  noteTextChanged(ctx, [noteId, ...descendantIds(ctx, noteId)]);
}
