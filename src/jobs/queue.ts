import type { AppContext } from "../context";
import type { Job } from "../store/jobs/jobs-store";
import { type JobDefinition, jobDefinition } from "./registry";

/**
 * The durable job queue (its table is the jobs store's, src/store/jobs). A job is `queued` until
 * its run time, then claimed (`running`, with a lease), then deleted when it succeeds, or queued
 * again with a later run time (backoff), or left `failed` with its last error once its attempts
 * are used up. A claim whose lease ran out (the process stopped mid-run) is claimed again: jobs
 * survive restarts. Several processes may share the queue: a job is claimed by one of them only.
 * A graceful shutdown that cannot wait for a run queues its jobs again at once (requeueJobs).
 * All times come from ctx.clock (test time travel moves them).
 */

export type { Job } from "../store/jobs/jobs-store";

/** How long a claim holds a job before another run may take it over (the worker renews it while it runs). */
export const LEASE_MS = 2 * 60_000;

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
export function enqueueMany<P>(ctx: AppContext, job: Pick<JobDefinition<P>, "kind">, payloads: P[], options: EnqueueOptions = {}) {
  const now = ctx.clock.now().getTime();
  return ctx.stores.jobs.enqueue(
    {
      kind: job.kind,
      payloads: payloads.map((payload) => JSON.stringify(payload)),
      runAt: now + Math.max(0, options.delayMs ?? 0),
      dedupe: options.dedupe !== false,
    },
    now,
  );
}

/** Adds one job; see enqueueMany. Answers whether it was added (false: already queued). */
export async function enqueue<P>(ctx: AppContext, job: Pick<JobDefinition<P>, "kind">, payload: P, options: EnqueueOptions = {}) {
  return (await enqueueMany(ctx, job, [payload], options)) === 1;
}

/**
 * Claims the due jobs of one kind (the kind of the job due longest), at most that kind's batch
 * size: queued jobs whose run time has come, and running jobs whose lease ran out. Answers none
 * when nothing is due.
 */
export function claimDueJobs(ctx: AppContext): Promise<Job[]> {
  return ctx.stores.jobs.claimDue(ctx.clock.now().getTime(), LEASE_MS, (kind) => jobDefinition(kind)?.batchSize ?? 1);
}

/** Extends the leases of jobs still running; answers them with their new lease (taken-over ones left out). */
export function renewJobLeases(ctx: AppContext, jobs: Job[]): Promise<Job[]> {
  const now = ctx.clock.now().getTime();
  return ctx.stores.jobs.renewLeases(jobs, now + LEASE_MS, now);
}

/** The jobs succeeded: they leave the queue. */
export function completeJobs(ctx: AppContext, jobs: Job[]) {
  return ctx.stores.jobs.complete(jobs);
}

/** The run was interrupted (Engram shut down first): queued again, due at once, not counted as an attempt. */
export function requeueJobs(ctx: AppContext, jobs: Job[]) {
  return ctx.stores.jobs.requeue(jobs, ctx.clock.now().getTime());
}

/** The jobs' run failed: each is queued again after its backoff, or `failed` once its attempts are used up. */
export async function failJobs(ctx: AppContext, jobs: Job[], error: unknown) {
  const now = ctx.clock.now().getTime();
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  for (const job of jobs) {
    const definition = jobDefinition(job.kind);
    const retryAt = definition && job.attempts < definition.attempts ? now + Math.max(0, definition.backoff(job.attempts)) : null;
    await ctx.stores.jobs.fail([job], message, retryAt, now);
  }
}
