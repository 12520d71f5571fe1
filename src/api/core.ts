import { Elysia } from "elysia";
import type { AppContext } from "../context";
import { UnauthorizedError } from "../services/errors";
import { mayCallApi } from "../services/policies/api-access";
import { authenticate } from "./authentication";

/**
 * What every area plugin builds on: the app context and `auth` (who is calling).
 * Named and seeded, so using it in many plugins derives `auth` once per request.
 */
export function core(ctx: AppContext) {
  return (
    new Elysia({ name: "engram-core", seed: ctx.instanceId })
      .decorate("ctx", ctx)
      .derive({ as: "global" }, ({ request, cookie }) => ({ auth: authenticate(ctx, request, cookie) }))
      // 401 for a caller not signed in, before the body or query is validated (the policy lists the open calls).
      .onTransform({ as: "global" }, ({ auth, request }) => {
        const identity = auth.user ? "user" : auth.account ? "account" : "nobody";
        if (!mayCallApi(identity, request.method, new URL(request.url).pathname)) throw new UnauthorizedError("Please sign in");
      })
  );
}
