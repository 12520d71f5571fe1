import { isAiConfigured } from "../../ai/client";
import { embeddingConfig, embeddingVersion } from "../../ai/settings";
import type { AppContext } from "../../context";
import { enqueue } from "../../jobs/queue";
import { embedNoteJob, reembedNotesJob } from "./embed-job";
import type { SearchScope } from "./scope";

/**
 * At start-up: with an AI provider configured, notes written while there was none (or whose
 * embedding never got through) are embedded in the background, a chunk at a time (reembedNotesJob
 * skips notes already embedded from the same text), so semantic search finds them without anyone
 * pressing "Update index". Answers whether the catch-up was queued.
 */
export async function catchUpMissingEmbeddings(ctx: AppContext): Promise<boolean> {
  // Only notes with no embedding at all: an embedding of another model is brought up to date by
  // the change of model (embeddingSettingsChanged).
  if (!isAiConfigured(ctx) || !(await ctx.stores.search.someNoteUnembedded())) return false;
  return enqueue(ctx, reembedNotesJob, { version: embeddingVersion(await embeddingConfig(ctx)), afterNoteId: 0 });
}

/** How far the semantic index of a search's notebooks is built. */
export interface IndexProgress {
  embedded: number;
  total: number;
}

/**
 * While notes of the scope still wait for their first embedding (a catch-up, an import, new notes:
 * embedding jobs are queued or running), how many of the scope's searchable notes are embedded;
 * undefined when none waits. The count is only taken while such jobs exist.
 */
export async function semanticIndexProgress(ctx: AppContext, scope: SearchScope): Promise<IndexProgress | undefined> {
  if (scope.notebookIds.length === 0) return undefined;
  const counts = await ctx.stores.search.embeddedCount(scope.notebookIds, [embedNoteJob.kind, reembedNotesJob.kind]);
  return counts && counts.embedded < counts.total ? counts : undefined;
}
