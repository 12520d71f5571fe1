import { Elysia, t } from "elysia";
import type { AppContext } from "../context";
import { dismiss, getOperation, listOperations, reapAbandoned } from "../operations";
import { requireUser } from "./authentication";
import { core } from "./core";
import { IdParam } from "./ids";
import { Operation, Operations } from "./schemas/operations";

/** Whether the client asked to be answered before long work ends (RFC 7240 `Prefer: respond-async`). */
export const prefersAsync = (request: Request) => /(^|[,;\s])respond-async\b/i.test(request.headers.get("prefer") ?? "");

/**
 * Long work of the signed-in user (imports, backups) and how far it is: GET /api/operations (the
 * running ones and the finished ones not dismissed), GET /api/operations/{id}, POST
 * /api/operations/{id}/dismiss. Operations left running by a stopped process are failed (and
 * what they wrote removed) when the app starts.
 */
export function operationsApi(ctx: AppContext) {
  return new Elysia({ name: "engram-operations", seed: ctx.instanceId, prefix: "/api/operations" })
    .use(core(ctx))
    .onStart(() => void reapAbandoned(ctx).catch((error) => console.error("Cleaning up stopped operations failed:", error)))
    .get("/", ({ auth }) => listOperations(ctx, requireUser(auth)), { access: "signed-in", response: Operations })
    .get("/:operation", ({ auth, params }) => getOperation(ctx, requireUser(auth), params.operation), {
      access: "signed-in",
      response: Operation,
      params: t.Object({ operation: IdParam }),
    })
    .post("/:operation/dismiss", ({ auth, params }) => dismiss(ctx, requireUser(auth), params.operation), {
      access: "signed-in",
      response: Operation,
      params: t.Object({ operation: IdParam }),
    });
}
