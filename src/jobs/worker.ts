import type { AppContext } from "../context";
import { instanceSlot, instanceValue } from "../instance-state";
import { recordFailure } from "../services/failure-reports";
import { claimDueJobs, completeJobs, failJobs, type Job, LEASE_MS, renewJobLeases, requeueJobs } from "./queue";
import { allRelays, jobDefinition } from "./registry";

/** How often the background worker looks for due jobs. */
export const POLL_INTERVAL_MS = 1000;

interface WorkerState {
  /** Runs are serialized per app: the worker's ticks and runDueJobs never overlap. */
  tail: Promise<unknown>;
  timer?: ReturnType<typeof setInterval>;
  /** Removes the wake-up that runs a tick when a job is queued (PostgreSQL's NOTIFY). */
  stopWaking?: () => void;
  ticking: boolean;
  /** No new claims. */
  stopped: boolean;
  /** The database is closing: the outcome of the run in progress is not written. */
  abandoned: boolean;
  /** The batch being performed, if any, with the leases it holds now. */
  running?: Job[];
}

const workerState = instanceSlot<WorkerState>("job worker", () => ({
  tail: Promise.resolve(),
  ticking: false,
  stopped: false,
  abandoned: false,
}));

const stateOf = (ctx: AppContext): WorkerState => instanceValue(ctx, workerState);

function exclusive<T>(state: WorkerState, run: () => Promise<T>): Promise<T> {
  const result = state.tail.then(run, run);
  state.tail = result.catch(() => undefined);
  return result;
}

/** Performs one claimed batch (jobs of one kind) and records the outcome of each job. */
async function performBatch(ctx: AppContext, jobs: Job[], state: WorkerState) {
  const kind = jobs[0]!.kind;
  const definition = jobDefinition(kind);
  let failure: unknown;
  state.running = jobs;
  // A long run keeps its leases, so no other process takes its jobs over while it works.
  const renewal = setInterval(() => {
    if (state.running?.length && !state.abandoned) {
      renewJobLeases(ctx, state.running)
        .then((renewed) => {
          if (state.running) state.running = renewed;
        })
        .catch((error) => console.error("The job worker could not renew its leases:", error));
    }
  }, LEASE_MS / 4);
  try {
    if (!definition) throw new Error(`Unknown job kind "${kind}"`);
    await definition.perform(
      ctx,
      jobs.map((job) => JSON.parse(job.payload)),
    );
  } catch (error) {
    failure = error ?? new Error("job failed");
  } finally {
    clearInterval(renewal);
  }
  const held = state.running ?? [];
  state.running = undefined;
  // Abandoned meanwhile: the database may be closed; the jobs were queued again (drainJobWorker)
  // or their leases run out, and they run again later.
  if (state.abandoned) return;
  if (failure === undefined) await completeJobs(ctx, held);
  else await failJobs(ctx, held, failure);
  if (failure !== undefined && (!definition || jobs[0]!.attempts >= definition.attempts)) {
    const message = failure instanceof Error ? failure.message : String(failure);
    console.error(`Job ${kind} failed for good after ${jobs[0]!.attempts} attempt(s): ${message}`);
    await recordFailure(ctx, failure);
  }
}

/** Turns the outboxes' recorded changes into jobs (the worker does it before each run). */
export async function relayOutboxes(ctx: AppContext, options = { immediate: false }) {
  for (const relay of allRelays()) await relay(ctx, options);
}

async function drain(ctx: AppContext, state: WorkerState, maxJobs: number, immediate = false): Promise<number> {
  await relayOutboxes(ctx, { immediate });
  let ran = 0;
  while (ran < maxJobs && !state.stopped) {
    const jobs = await claimDueJobs(ctx);
    if (jobs.length === 0) break;
    await performBatch(ctx, jobs, state);
    ran += jobs.length;
  }
  return ran;
}

/**
 * Runs the due jobs now, until none is due (or `maxJobs` ran), after any run of the background
 * worker in progress; the outboxes' changes are relayed first as jobs due at once. For tests and
 * for code that needs the queue empty; answers how many jobs ran.
 */
export function runDueJobs(ctx: AppContext, options: { maxJobs?: number } = {}): Promise<number> {
  const state = stateOf(ctx);
  return exclusive(state, () =>
    drain(ctx, { ...state, stopped: false, abandoned: false }, options.maxJobs ?? Number.POSITIVE_INFINITY, true),
  );
}

/**
 * Starts the background worker: every POLL_INTERVAL_MS it runs the due jobs, and at once when the
 * database says a job was queued (PostgreSQL's NOTIFY: a wake-up only; the poll stays).
 */
export function startJobWorker(ctx: AppContext) {
  const state = stateOf(ctx);
  if (state.timer) return;
  state.stopped = false;
  state.abandoned = false;
  const tick = () => {
    if (state.ticking || state.stopped) return;
    state.ticking = true;
    exclusive(state, () => drain(ctx, state, Number.POSITIVE_INFINITY))
      .catch((error) => console.error("The job worker stopped a run:", error))
      .finally(() => {
        state.ticking = false;
      });
  };
  state.timer = setInterval(tick, POLL_INTERVAL_MS);
  state.timer.unref?.();
  state.stopWaking = ctx.database.onWake("jobs", tick);
}

function stopTimers(state: WorkerState) {
  if (state.timer) clearInterval(state.timer);
  state.timer = undefined;
  state.stopWaking?.();
  state.stopWaking = undefined;
}

/**
 * Stops the background worker at once (the database may close right after): a job in progress
 * finishes but its outcome is not written; its lease runs out and it runs again later.
 */
export function stopJobWorker(ctx: AppContext) {
  const state = stateOf(ctx);
  state.stopped = true;
  state.abandoned = true;
  stopTimers(state);
}

/**
 * Stops the background worker gracefully (a shutdown step, see lifecycle.ts): it claims nothing
 * more, and the run in progress finishes with its outcome written. If `graceOver` aborts first,
 * the jobs of that run are queued again at once, as if not tried (the next start runs them
 * without waiting for their lease to run out), and the run's outcome is not written.
 */
export function drainJobWorker(ctx: AppContext, graceOver: AbortSignal): Promise<void> {
  const state = stateOf(ctx);
  state.stopped = true;
  stopTimers(state);
  return new Promise<void>((resolve) => {
    const giveUp = () => {
      state.abandoned = true;
      // On SQLite the store call runs before it returns: done before the database closes.
      if (state.running) void requeueJobs(ctx, state.running);
      resolve();
    };
    if (graceOver.aborted) return giveUp();
    graceOver.addEventListener("abort", giveUp, { once: true });
    void state.tail.then(() => {
      graceOver.removeEventListener("abort", giveUp);
      resolve();
    });
  });
}
