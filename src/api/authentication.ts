import type { Cookie } from "elysia";
import type { AppContext } from "../context";
import { validateSessionToken } from "../services/auth/sessions";
import { UnauthorizedError } from "../services/errors";
import { authenticateUserToken } from "../services/user-tokens";
import type { AccountRow, CurrentUser, UserRow } from "../services/users";

export const SESSION_COOKIE = "engram_session";

/** Who is calling: nobody, an identity without a profile, or a user (by session cookie or bearer token). */
export interface Auth {
  account?: AccountRow;
  user?: UserRow;
  via?: "session" | "bearer";
  /** The stored id (token hash) of the session this request came with. */
  sessionId?: string;
}

/** The cookie attributes of the Lucia guide: HttpOnly, SameSite=Lax, Secure when served over HTTPS. */
export function sessionCookie(ctx: AppContext, request: Request, token: string, expires: Date) {
  const secure = ctx.config.publicUrl ? ctx.config.publicUrl.protocol === "https:" : new URL(request.url).protocol === "https:";
  return { value: token, httpOnly: true, sameSite: "lax" as const, secure, path: "/", expires };
}

/** Reads the bearer token or the session cookie; a session used in its second half slides forward. */
export async function authenticate(ctx: AppContext, request: Request, cookie: Record<string, Cookie<unknown>>): Promise<Auth> {
  const authorization = request.headers.get("authorization");
  if (authorization?.startsWith("Bearer ")) {
    const current = await authenticateUserToken(ctx, authorization.slice(7).trim());
    return current && !current.account.disabledAt ? { ...current, via: "bearer" } : {};
  }
  const token = cookie[SESSION_COOKIE]?.value;
  if (!token || typeof token !== "string") return {};
  const session = await validateSessionToken(ctx, token, new Date());
  if (!session || session.account.disabledAt) {
    cookie[SESSION_COOKIE]?.remove();
    return {};
  }
  if (session.renewedUntil) cookie[SESSION_COOKIE]!.set(sessionCookie(ctx, request, token, session.renewedUntil));
  return { account: session.account, user: session.user, via: "session", sessionId: session.sessionId };
}

export function requireAccount(auth: Auth): AccountRow {
  if (!auth.account) throw new UnauthorizedError("Please sign in");
  return auth.account;
}

/** The signed-in user with a profile; 401 otherwise. */
export function requireUser(auth: Auth): CurrentUser {
  if (!auth.account || !auth.user) throw new UnauthorizedError("Please sign in");
  return { account: auth.account, user: auth.user };
}

/** The signed-in user when there is one (reading may be allowed to others later: bazaar); the service refuses nobody-signed-in itself. */
export const optionalUser = (auth: Auth) => (auth.account && auth.user ? requireUser(auth) : undefined);
