import { isAiConfigured } from "../../ai/client";
import { embeddingConfig, embeddingVersion } from "../../ai/settings";
import type { AppContext } from "../../context";
import { enqueue } from "../../jobs/queue";
import { embedNoteJob, reembedNotesJob } from "./embed-job";
import type { SearchScope } from "./scope";

/**
 * Whether some note that semantic search covers (undeleted, not a link) has no embedding at all.
 * (An embedding of another model is brought up to date by the change of model: embeddingSettingsChanged.)
 */
function someNoteUnembedded(ctx: AppContext): boolean {
  return (
    ctx.sqlite
      .query<{ one: number }, []>(
        `SELECT 1 AS one FROM notes n WHERE n.deleted_at IS NULL AND +n.target_note_id IS NULL
         AND NOT EXISTS (SELECT 1 FROM note_embeddings e WHERE e.note_id = n.id) LIMIT 1`,
      )
      .get() !== null
  );
}

/**
 * At start-up: with an AI provider configured, notes written while there was none (or whose
 * embedding never got through) are embedded in the background, a chunk at a time (reembedNotesJob
 * skips notes already embedded from the same text), so semantic search finds them without anyone
 * pressing "Update index". Answers whether the catch-up was queued.
 */
export async function catchUpMissingEmbeddings(ctx: AppContext): Promise<boolean> {
  if (!isAiConfigured(ctx) || !someNoteUnembedded(ctx)) return false;
  return enqueue(ctx, reembedNotesJob, { version: embeddingVersion(embeddingConfig(ctx)), afterNoteId: 0 });
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
export function semanticIndexProgress(ctx: AppContext, scope: SearchScope): IndexProgress | undefined {
  if (scope.notebookIds.length === 0) return undefined;
  const pending = ctx.sqlite
    .query<{ one: number }, [string, string]>(
      "SELECT 1 AS one FROM jobs WHERE status IN ('queued', 'running') AND kind IN (?1, ?2) LIMIT 1",
    )
    .get(embedNoteJob.kind, reembedNotesJob.kind);
  if (!pending) return undefined;
  const counts = ctx.sqlite
    .query<{ total: number; embedded: number }, [string]>(
      `SELECT count(*) AS total, count(e.note_id) AS embedded FROM notes n
       LEFT JOIN note_embeddings e ON e.note_id = n.id
       WHERE n.notebook_id IN (SELECT value FROM json_each(?1)) AND n.deleted_at IS NULL AND n.target_note_id IS NULL`,
    )
    .get(JSON.stringify(scope.notebookIds))!;
  return counts.embedded < counts.total ? counts : undefined;
}
