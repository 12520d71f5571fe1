import { Elysia } from "elysia";
import type { AppContext } from "../context";
import { startJobWorker, stopJobWorker } from "./worker";

/**
 * Runs the background job worker while the app listens: started on listen, stopped on stop.
 * Mount once per app (named and seeded by the app instance, so mounting it twice is harmless).
 */
export function jobWorker(ctx: AppContext) {
  return new Elysia({ name: "engram-job-worker", seed: ctx.instanceId })
    .onStart(() => startJobWorker(ctx))
    .onStop(() => stopJobWorker(ctx));
}
