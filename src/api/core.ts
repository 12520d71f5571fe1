import { Elysia } from "elysia";
import type { AppContext } from "../context";
import { authenticate } from "./authentication";

/**
 * What every area plugin builds on: the app context and `auth` (who is calling).
 * Named and seeded, so using it in many plugins derives `auth` once per request.
 */
export function core(ctx: AppContext) {
  return new Elysia({ name: "engram-core", seed: ctx.instanceId })
    .decorate("ctx", ctx)
    .derive({ as: "global" }, ({ request, cookie }) => ({ auth: authenticate(ctx, request, cookie) }));
}
