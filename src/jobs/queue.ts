import type { AppContext } from "../context";
import { type JobDefinition, jobDefinition } from "./registry";

/**
 * The durable job queue on the `jobs` table. A job is `queued` until its run_at, then claimed
 * (`running`, with a lease in locked_until), then deleted when it succeeds, or queued again with
 * a later run_at (backoff), or left `failed` with its last error once its attempts are used up.
 * A claim whose lease ran out (the process stopped mid-run) is claimed again: jobs survive restarts.
 * A graceful shutdown that cannot wait for a run queues its jobs again at once (requeueJob).
 * All times come from ctx.clock (test time travel moves them).
 */

/** How long a claim holds a job before another run may take it over. */
export const LEASE_MS = 2 * 60_000;

export interface JobRow {
  id: number;
  kind: string;
  payload: string;
  status: "queued" | "running" | "done" | "failed";
  attempts: number;
  run_at: number;
  locked_until: number | null;
  last_error: string | null;
}

export interface EnqueueOptions {
  /** Run no earlier than this many milliseconds from now (default 0). */
  delayMs?: number;
  /** Skip when the same kind and payload is already queued (default true). */
  dedupe?: boolean;
}

/**
 * Adds jobs of one kind, in one transaction. With dedupe (the default), a payload already queued
 * is not added again: the queued job will read the newest data when it runs. Answers how many
 * jobs were added.
 */
export function enqueueMany<P>(ctx: AppContext, job: Pick<JobDefinition<P>, "kind">, payloads: P[], options: EnqueueOptions = {}): number {
  if (payloads.length === 0) return 0;
  const now = ctx.clock.now().getTime();
  const runAt = now + Math.max(0, options.delayMs ?? 0);
  const insert = ctx.sqlite.query(
    `INSERT INTO jobs (kind, payload, status, attempts, run_at, created_at, updated_at) VALUES (?, ?, 'queued', 0, ?, ?, ?)`,
  );
  let added = 0;
  ctx.sqlite.transaction(() => {
    // One read of the queued payloads of this kind (the queue is short when the worker keeps up).
    const queued =
      options.dedupe === false
        ? new Set<string>()
        : new Set(
            ctx.sqlite
              .query<{ payload: string }, [string]>("SELECT payload FROM jobs WHERE status = 'queued' AND kind = ?")
              .all(job.kind)
              .map((row) => row.payload),
          );
    for (const payload of payloads) {
      const text = JSON.stringify(payload);
      if (queued.has(text)) continue;
      queued.add(text);
      insert.run(job.kind, text, runAt, now, now);
      added++;
    }
  })();
  return added;
}

/** Adds one job; see enqueueMany. Answers whether it was added (false: already queued). */
export function enqueue<P>(ctx: AppContext, job: Pick<JobDefinition<P>, "kind">, payload: P, options: EnqueueOptions = {}): boolean {
  return enqueueMany(ctx, job, [payload], options) === 1;
}

/**
 * Claims the due jobs of one kind (the kind of the job due longest), at most that kind's batch
 * size: queued jobs whose run_at has come, and running jobs whose lease ran out. Answers none
 * when nothing is due.
 */
export function claimDueJobs(ctx: AppContext): JobRow[] {
  const now = ctx.clock.now().getTime();
  const next = ctx.sqlite
    .query<{ kind: string }, [number, number]>(
      `SELECT kind FROM jobs WHERE (status = 'queued' AND run_at <= ?) OR (status = 'running' AND locked_until <= ?)
       ORDER BY run_at, id LIMIT 1`,
    )
    .get(now, now);
  if (!next) return [];
  const batchSize = Math.max(1, jobDefinition(next.kind)?.batchSize ?? 1);
  return ctx.sqlite
    .query<JobRow, [number, number, string, number]>(
      `UPDATE jobs SET status = 'running', attempts = attempts + 1, locked_until = ?1, updated_at = ?2
       WHERE id IN (
         SELECT id FROM jobs WHERE kind = ?3 AND ((status = 'queued' AND run_at <= ?2) OR (status = 'running' AND locked_until <= ?2))
         ORDER BY run_at, id LIMIT ?4)
       RETURNING id, kind, payload, status, attempts, run_at, locked_until, last_error`,
    )
    .all(now + LEASE_MS, now, next.kind, batchSize)
    .sort((a, b) => a.run_at - b.run_at || a.id - b.id);
}

/** A claimed job is still ours while it is running under the lease we set (a reset may have replaced it). */
const OURS = "id = ? AND status = 'running' AND locked_until = ?";

/** The job succeeded: it is removed (the queue only keeps work still to do, and failures). */
export function completeJob(ctx: AppContext, job: JobRow) {
  ctx.sqlite.query(`DELETE FROM jobs WHERE ${OURS}`).run(job.id, job.locked_until);
}

/**
 * The run was interrupted (Engram shut down before it finished): the job is queued again, due at
 * once, and the interrupted run does not count as one of its attempts.
 */
export function requeueJob(ctx: AppContext, job: JobRow) {
  const now = ctx.clock.now().getTime();
  ctx.sqlite
    .query(`UPDATE jobs SET status = 'queued', attempts = MAX(0, attempts - 1), locked_until = NULL, updated_at = ? WHERE ${OURS}`)
    .run(now, job.id, job.locked_until);
}

/** The job failed: queued again after its backoff, or `failed` once its attempts are used up. */
export function failJob(ctx: AppContext, job: JobRow, error: unknown) {
  const now = ctx.clock.now().getTime();
  const definition = jobDefinition(job.kind);
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  if (definition && job.attempts < definition.attempts) {
    const runAt = now + Math.max(0, definition.backoff(job.attempts));
    ctx.sqlite
      .query(`UPDATE jobs SET status = 'queued', run_at = ?, locked_until = NULL, last_error = ?, updated_at = ? WHERE ${OURS}`)
      .run(runAt, message, now, job.id, job.locked_until);
  } else {
    ctx.sqlite
      .query(`UPDATE jobs SET status = 'failed', locked_until = NULL, last_error = ?, updated_at = ? WHERE ${OURS}`)
      .run(message, now, job.id, job.locked_until);
  }
}
