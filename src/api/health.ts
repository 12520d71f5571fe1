import { Elysia, t } from "elysia";
import { isProduction } from "../config";
import type { AppContext } from "../context";
import { identifyWithBasicAuth, parseBasicAuth } from "../services/auth/basic-auth";
import { createSession } from "../services/auth/sessions";
import { UnauthorizedError } from "../services/errors";
import { SESSION_COOKIE, sessionCookie } from "./authentication";
import { core } from "./core";

/**
 * GET /api/healthcheck answers 200 "OK". Outside production, basic-auth credentials on it sign
 * the caller in (the reference's test login); production never creates a session here.
 */
export function healthApi(ctx: AppContext) {
  return new Elysia({ prefix: "/api" }).use(core(ctx)).get(
    "/healthcheck",
    async ({ request, cookie }) => {
      if (isProduction(ctx.config)) return "OK";
      const credentials = parseBasicAuth(request.headers.get("authorization"));
      if (!credentials) return "OK";
      const account = await identifyWithBasicAuth(ctx, credentials.name, credentials.password);
      if (!account) throw new UnauthorizedError("Wrong username or password");
      const session = await createSession(ctx, account.id, new Date());
      cookie[SESSION_COOKIE]!.set(sessionCookie(ctx, request, session.token, session.expiresAt));
      return "OK";
    },
    { access: "public", response: t.String() },
  );
}
