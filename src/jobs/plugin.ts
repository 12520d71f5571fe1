import { Elysia } from "elysia";
import type { AppContext } from "../context";
import { onShutdown } from "../lifecycle";
import { drainJobWorker, startJobWorker, stopJobWorker } from "./worker";

/**
 * Runs the background job worker while the app listens: started on listen, stopped on stop.
 * A graceful shutdown (lifecycle.ts) lets the run in progress finish, or queues it again.
 * Mount once per app (named and seeded by the app instance, so mounting it twice is harmless).
 */
export function jobWorker(ctx: AppContext) {
  let leave: (() => void) | undefined;
  return new Elysia({ name: "engram-job-worker", seed: ctx.instanceId })
    .onStart(() => {
      startJobWorker(ctx);
      leave ??= onShutdown(ctx, "job worker", (graceOver) => drainJobWorker(ctx, graceOver));
    })
    .onStop(() => {
      leave?.();
      leave = undefined;
      stopJobWorker(ctx);
    });
}
