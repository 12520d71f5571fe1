import { Elysia } from "elysia";
import type { AppContext } from "../context";
import { ACCESS_DETAIL_KEY, type ApiAccess, checkApiAccess } from "../services/policies/api-access";
import { authenticate } from "./authentication";

/**
 * What every area plugin builds on: the app context, `auth` (who is calling) and the `access`
 * macro each /api route declares. Named and seeded, so using it in many plugins derives `auth`
 * once per request.
 */
export function core(ctx: AppContext) {
  return new Elysia({ name: "engram-core", seed: ctx.instanceId })
    .decorate("ctx", ctx)
    .derive({ as: "global" }, async ({ request, cookie }) => ({ auth: await authenticate(ctx, request, cookie) }))
    .macro({
      /**
       * Who may call the route at all (its service still asks the policy about the thing it
       * touches). Checked in a transform hook, which Elysia runs before validation: a caller
       * without enough identity gets 401 (or 403 for a non-admin) before a 400. The level is
       * also written into the route's detail, where the route table and the OpenAPI read it.
       */
      access: (level: ApiAccess) => ({
        detail: { [ACCESS_DETAIL_KEY]: level } as Record<string, string>,
        transform: ({ auth }: { auth: Parameters<typeof checkApiAccess>[1] }) => checkApiAccess(level, auth),
      }),
    });
}
