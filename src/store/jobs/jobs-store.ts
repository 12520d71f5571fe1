/**
 * The durable job queue's table (src/jobs uses it). A job is `queued` until its run time, then
 * claimed (`running`, with a lease: lockedUntil), then deleted when it succeeds, or queued again
 * after a backoff, or left `failed`. Every change of a claimed job is guarded by its lease
 * (id, running, lockedUntil as claimed): a claim that ran out and was taken over is no longer ours.
 * Times are milliseconds from the caller's clock.
 */
import { and, asc, eq, inArray, isNotNull, lte, or, type SQL, sql } from "drizzle-orm";
import { defineStore, type StoreOf, write } from "../define";
import { all, byDialect, run, type Session, type Step } from "../session";

export interface Job {
  id: number;
  kind: string;
  /** JSON text. */
  payload: string;
  attempts: number;
  runAt: number;
  /** The lease the claim set: the job is ours while it is running under this very value. */
  lockedUntil: number;
}

export interface NewJobs {
  kind: string;
  /** JSON texts. */
  payloads: string[];
  runAt: number;
  /** At most one queued job per kind and payload (a payload already queued is not added again). */
  dedupe: boolean;
}

/** Queued and due, or running with a lease that ran out (its process stopped mid-run). */
function due(s: Session, now: number): SQL {
  const { jobs } = s.t;
  return or(
    and(eq(jobs.status, "queued"), lte(jobs.runAt, new Date(now))),
    and(eq(jobs.status, "running"), lte(jobs.lockedUntil, new Date(now))),
  )!;
}

function ours(s: Session, job: Pick<Job, "id" | "lockedUntil">): SQL {
  const { jobs } = s.t;
  return and(eq(jobs.id, job.id), eq(jobs.status, "running"), eq(jobs.lockedUntil, new Date(job.lockedUntil)))!;
}

/** Adds jobs of one kind; answers how many were added (a de-duplicated payload already queued is not). */
export function* enqueue(s: Session, jobs: NewJobs, now: number): Step<number> {
  if (jobs.payloads.length === 0) return 0;
  const { t } = s;
  const rows = jobs.payloads.map((payload) => ({
    kind: jobs.kind,
    payload,
    status: "queued",
    attempts: 0,
    runAt: new Date(jobs.runAt),
    dedupeKey: jobs.dedupe ? `${jobs.kind}:${payload}` : null,
    createdAt: new Date(now),
    updatedAt: new Date(now),
  }));
  // The unique index on queued jobs' keys decides, in the database: concurrent enqueues add one.
  // (Its only unique constraint besides the id: no conflict target needed, nor drizzle's misplaced `where`.)
  return yield* run(s, s.db.insert(t.jobs).values(rows).onConflictDoNothing());
}

/**
 * Claims the due jobs of one kind (the kind of the job due longest), at most `batchSizeOf(kind)`,
 * oldest first: one guarded UPDATE ... RETURNING. The guard (still due) is in the UPDATE itself, so
 * two claimers never take the same job: on SQLite the write lock orders them; on PostgreSQL the
 * second one re-checks the guard on the rows the first changed and leaves them.
 */
export function* claimDue(s: Session, now: number, leaseMs: number, batchSizeOf: (kind: string) => number): Step<Job[]> {
  const { t } = s;
  const jobs = t.jobs;
  const [next] = yield* all(
    s,
    s.db.select({ kind: jobs.kind }).from(jobs).where(due(s, now)).orderBy(asc(jobs.runAt), asc(jobs.id)).limit(1),
  );
  if (!next) return [];
  const candidates = s.db
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.kind, next.kind), due(s, now)))
    .orderBy(asc(jobs.runAt), asc(jobs.id))
    .limit(Math.max(1, batchSizeOf(next.kind)));
  const claimed = yield* all(
    s,
    s.db
      .update(jobs)
      .set({ status: "running", attempts: sql`${jobs.attempts} + 1`, lockedUntil: new Date(now + leaseMs), updatedAt: new Date(now) })
      .where(
        and(
          inArray(
            jobs.id,
            byDialect(s, {
              sqlite: () => candidates,
              // Rows another claimer is taking are skipped rather than waited for.
              postgres: () =>
                (candidates as unknown as { for(strength: "update", config: { skipLocked: true }): typeof candidates }).for("update", {
                  skipLocked: true,
                }),
            }),
          ),
          due(s, now),
        ),
      )
      .returning({
        id: jobs.id,
        kind: jobs.kind,
        payload: jobs.payload,
        attempts: jobs.attempts,
        runAt: jobs.runAt,
        lockedUntil: jobs.lockedUntil,
      }),
  );
  return claimed
    .map((row) => ({ ...row, runAt: row.runAt.getTime(), lockedUntil: row.lockedUntil!.getTime() }))
    .sort((a, b) => a.runAt - b.runAt || a.id - b.id);
}

/**
 * Extends the leases of jobs still running (a long run keeps them), answering the jobs with their
 * new lease; a job whose lease was taken over meanwhile is left out.
 */
export function* renewLeases(s: Session, jobs: Job[], until: number, now: number): Step<Job[]> {
  const renewed: Job[] = [];
  for (const job of jobs) {
    const changed = yield* run(
      s,
      s.db
        .update(s.t.jobs)
        .set({ lockedUntil: new Date(until), updatedAt: new Date(now) })
        .where(ours(s, job)),
    );
    if (changed === 1) renewed.push({ ...job, lockedUntil: until });
  }
  return renewed;
}

/** The job succeeded: removed (the queue keeps only work still to do, and failures). */
export function* complete(s: Session, jobs: Job[]): Step<void> {
  for (const job of jobs) yield* run(s, s.db.delete(s.t.jobs).where(ours(s, job)));
}

/**
 * Removes a de-duplicated job of ours whose payload was queued again while it ran: that queued job
 * does the same work, and ours could not be queued beside it (one queued job per key). True when removed.
 */
function* removedForQueuedTwin(s: Session, job: Job): Step<boolean> {
  const t = s.t.jobs;
  const twinQueued = sql`EXISTS (SELECT 1 FROM ${t} AS twin WHERE twin.dedupe_key = ${t.dedupeKey} AND twin.status = 'queued')`;
  return (yield* run(s, s.db.delete(t).where(and(ours(s, job), isNotNull(t.dedupeKey), twinQueued)))) === 1;
}

/** The run was interrupted (shutdown): queued again, due at once, and the run does not count as an attempt. */
export function* requeue(s: Session, jobs: Job[], now: number): Step<void> {
  const t = s.t.jobs;
  for (const job of jobs) {
    if (yield* removedForQueuedTwin(s, job)) continue;
    yield* run(
      s,
      s.db
        .update(t)
        .set({
          status: "queued",
          attempts: sql`CASE WHEN ${t.attempts} > 0 THEN ${t.attempts} - 1 ELSE 0 END`,
          lockedUntil: null,
          updatedAt: new Date(now),
        })
        .where(ours(s, job)),
    );
  }
}

/** The job failed: queued again at `retryAt` (unless its payload is queued already), or left `failed` (retryAt null), with its error. */
export function* fail(s: Session, jobs: Job[], error: string, retryAt: number | null, now: number): Step<void> {
  for (const job of jobs) {
    if (retryAt !== null && (yield* removedForQueuedTwin(s, job))) continue;
    const outcome = retryAt === null ? { status: "failed" } : { status: "queued", runAt: new Date(retryAt) };
    yield* run(
      s,
      s.db
        .update(s.t.jobs)
        .set({ ...outcome, lockedUntil: null, lastError: error, updatedAt: new Date(now) })
        .where(ours(s, job)),
    );
  }
}

export const jobsStore = defineStore({
  enqueue: write(enqueue),
  claimDue: write(claimDue),
  renewLeases: write(renewLeases),
  complete: write(complete),
  requeue: write(requeue),
  fail: write(fail),
});
export type JobsStore = StoreOf<typeof jobsStore>;
