import { ForbiddenError, UnauthorizedError } from "../errors";
import type { AccountRow, UserRow } from "../users";

/**
 * How much identity an /api route needs before anything else runs, declared on the route
 * (`{ access: "signed-in" }`) and checked before its input is validated:
 *
 *   public     anyone, signed out included (bazaar reading, who is signed in, the health check);
 *              the service still decides what a visitor may read
 *   account    an identity without a profile yet (creating it, its sessions and password)
 *   signed-in  a user with a profile
 *   admin      an admin; others get 403, nobody signed in 401
 */
export const API_ACCESS_LEVELS = ["public", "account", "signed-in", "admin"] as const;
export type ApiAccess = (typeof API_ACCESS_LEVELS)[number];

/** Where a route's level is kept in its detail (also an OpenAPI extension of the operation). */
export const ACCESS_DETAIL_KEY = "x-engram-access";

/** Refuses a caller who has less identity than the route's level. */
export function checkApiAccess(level: ApiAccess, auth: { account?: AccountRow; user?: UserRow }) {
  if (level === "public") return;
  if (!auth.account || (level !== "account" && !auth.user)) throw new UnauthorizedError("Please sign in");
  if (level === "admin" && !auth.account.admin) throw new ForbiddenError("Only an administrator can do this");
}

/** The level a route declared, or undefined when it forgot (route table entries keep their detail). */
export function declaredAccess(route: { hooks?: unknown }): ApiAccess | undefined {
  const detail = (route.hooks as { detail?: Record<string, unknown> } | undefined)?.detail;
  const level = detail?.[ACCESS_DETAIL_KEY];
  return API_ACCESS_LEVELS.find((known) => known === level);
}
