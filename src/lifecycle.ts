/**
 * Graceful shutdown (SIGTERM/SIGINT, see main.ts): Engram stops accepting connections, lets the
 * requests in progress finish, runs every registered shutdown step (the job worker finishes or
 * requeues its run; streams end with a final event; schedulers stop), all within one grace
 * period, then checkpoints the WAL and closes the database.
 *
 * Anything long-lived joins with `onShutdown(ctx, name, step)`:
 *
 *   const leave = onShutdown(ctx, "backup scheduler", async (graceOver) => {
 *     clearInterval(timer);
 *     await backupInProgress; // the database stays open until this settles or the grace ends
 *   });
 *   // ...and `leave()` when it ends by itself.
 *
 * A server-sent event stream (none exists yet) registers a step that writes a final event, e.g.
 * `event: shutdown\ndata: {"reason":"Engram is restarting"}\n\n`, and closes the stream, so
 * its request ends at once instead of holding the shutdown for the whole grace period.
 *
 * Every step starts when shutdown starts, in parallel with the draining of requests. A step may
 * take until the grace ends; `graceOver` aborts then, and the step must give up at once (in its
 * abort listener, synchronously: the database is closed right after).
 */
import type { AppContext } from "./context";
import { instanceSlot, instanceValue } from "./instance-state";

export type ShutdownStep = (graceOver: AbortSignal) => void | Promise<void>;

interface Lifecycle {
  steps: Map<symbol, { name: string; step: ShutdownStep }>;
  shuttingDown: boolean;
}

const lifecycle = instanceSlot<Lifecycle>("lifecycle", () => ({ steps: new Map(), shuttingDown: false }));

const lifecycleOf = (ctx: AppContext): Lifecycle => instanceValue(ctx, lifecycle);

/** Registers a step to run when this instance shuts down; answers a function that unregisters it. */
export function onShutdown(ctx: AppContext, name: string, step: ShutdownStep): () => void {
  const key = Symbol(name);
  lifecycleOf(ctx).steps.set(key, { name, step });
  return () => {
    lifecycleOf(ctx).steps.delete(key);
  };
}

/** Whether this instance has begun shutting down (new long-lived work should not start). */
export function isShuttingDown(ctx: AppContext): boolean {
  return lifecycleOf(ctx).shuttingDown;
}

/** What `shutDown` needs of the listening Elysia app. */
export interface ListeningApp {
  /** Bun.serve's server: `stop(false)` refuses new connections and resolves when the open requests are done. */
  server: { stop(closeActiveConnections?: boolean): Promise<void> | void } | null;
  /** Elysia's stop: closes the connections left and runs the plugins' onStop hooks. */
  stop(closeActiveConnections?: boolean): Promise<unknown>;
}

export interface ShutdownReport {
  /** Whether every request in progress finished within the grace (false: the rest were cut off). */
  requestsFinished: boolean;
  /** The names of the shutdown steps that had not finished when the grace ended. */
  unfinishedSteps: string[];
}

/**
 * Shuts one instance down gracefully: at once, `app` stops accepting connections and every
 * shutdown step starts; then it waits for the requests in progress and the steps, at most
 * `graceMs`; then it closes the connections still open and runs the app's onStop hooks,
 * checkpoints the WAL (TRUNCATE: the -wal file is left empty) and closes the database.
 */
export async function shutDown(ctx: AppContext, app: ListeningApp | undefined, options: { graceMs: number }): Promise<ShutdownReport> {
  const lifecycle = lifecycleOf(ctx);
  lifecycle.shuttingDown = true;
  const graceOver = new AbortController();
  const timer = setTimeout(() => graceOver.abort(), Math.max(0, options.graceMs));
  const ended = new Promise<"grace over">((resolve) => {
    graceOver.signal.addEventListener("abort", () => resolve("grace over"), { once: true });
  });

  const server = app?.server;
  const requests = server
    ? Promise.resolve(server.stop(false)).then(
        () => "done" as const,
        () => "done" as const,
      )
    : Promise.resolve("done" as const);
  const unfinished = new Set<string>();
  const steps = [...lifecycle.steps.values()].map(({ name, step }) => {
    unfinished.add(name);
    return (async () => step(graceOver.signal))()
      .catch((error) => console.error(`Shutdown step "${name}" failed:`, error))
      .finally(() => unfinished.delete(name));
  });
  lifecycle.steps.clear();

  const requestsFinished = (await Promise.race([requests, ended])) === "done";
  await Promise.race([Promise.all(steps), ended]);
  clearTimeout(timer);
  // Steps still running learn that the grace is over (and give up) before the database closes.
  if (unfinished.size > 0) graceOver.abort();
  const unfinishedSteps = [...unfinished];

  if (app?.server) await app.stop(true);
  await ctx.database.close();
  return { requestsFinished, unfinishedSteps };
}
