import type { AppContext } from "../../context";
import type { SessionFound } from "../../store/sessions/sessions-store";
import { forgetAnswer, keepAnswer, keptAnswer } from "../cache-versions";
import { generateRandomToken, hashToken } from "./tokens";

/** Sessions last 30 days and slide: a session used in its second half is extended. */
export const SESSION_LIFETIME_MS = 30 * 24 * 3_600_000;
const RENEW_WHEN_LEFT_MS = SESSION_LIFETIME_MS / 2;
/** "Last used" is written at most once a minute per session, so reading pages does not write on every request. */
const LAST_USED_PRECISION_MS = 60_000;

/** Creates a session for the account; answers the cookie token (128 bits) and its expiry. */
export async function createSession(ctx: AppContext, accountId: number, now: Date, userAgent?: string | null) {
  const token = generateRandomToken(16);
  const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_MS);
  await ctx.stores.sessions.create({ id: hashToken(token), accountId, expiresAt, userAgent: userAgent?.slice(0, 500) || null }, now);
  return { token, expiresAt };
}

type FoundSession = Omit<SessionFound, "version">;

/**
 * The session, its account and its user: kept in memory (the "sessions" cache) while the account's
 * cache version holds, so a request reads one version instead of three rows. Any change to the
 * account's sessions, the account or its user, by any process, raises the version.
 */
async function sessionWithAccount(ctx: AppContext, id: string): Promise<FoundSession | undefined> {
  const kept = keptAnswer<FoundSession>(ctx, "sessions", id);
  if (kept && kept.version === String(await ctx.stores.sessions.accountVersion(kept.answer.account.id))) return kept.answer;
  const found = await ctx.stores.sessions.lookup(id);
  if (!found) {
    forgetAnswer(ctx, "sessions", id);
    return undefined;
  }
  const { session, account, user, version } = found;
  return keepAnswer(ctx, "sessions", id, version, {
    session: Object.freeze(session),
    account: Object.freeze(account),
    user: user && Object.freeze(user),
  });
}

/**
 * The account (and its user profile, if any) behind a session token, or undefined when the
 * token is unknown or expired. `renewedUntil` is set when the expiry was extended, so the
 * cookie can be refreshed. Any change to sessions, accounts or users (a sign-out, a disabled
 * account, a new setting), by any process, is seen by the next request.
 */
export async function validateSessionToken(ctx: AppContext, token: string, now: Date) {
  const id = hashToken(token);
  const found = await sessionWithAccount(ctx, id);
  if (!found) return undefined;
  const { session, account, user } = found;
  if (session.expiresAt.getTime() <= now.getTime()) {
    await ctx.stores.sessions.remove(id);
    return undefined;
  }
  let renewedUntil: Date | undefined;
  const changes: { expiresAt?: Date; lastUsedAt?: Date } = {};
  if (session.expiresAt.getTime() - now.getTime() < RENEW_WHEN_LEFT_MS) {
    renewedUntil = new Date(now.getTime() + SESSION_LIFETIME_MS);
    changes.expiresAt = renewedUntil;
  }
  if (now.getTime() - (session.lastUsedAt?.getTime() ?? 0) >= LAST_USED_PRECISION_MS) changes.lastUsedAt = now;
  if (Object.keys(changes).length) await ctx.stores.sessions.touch(id, account.id, changes);
  return { account, user, renewedUntil, sessionId: id };
}

export async function invalidateSession(ctx: AppContext, token: string) {
  await ctx.stores.sessions.remove(hashToken(token));
}

/** The account's sessions that have not expired, most recently used first. */
export function listSessions(ctx: AppContext, accountId: number, now: Date) {
  return ctx.stores.sessions.listOf(accountId, now);
}

/** Ends every session of the account except the one given (all of them when it is undefined); answers how many ended. */
export function invalidateOtherSessions(ctx: AppContext, accountId: number, keepSessionId: string | undefined) {
  return ctx.stores.sessions.removeAllOf(accountId, keepSessionId);
}

/** A short name for the browser behind a user agent: "Firefox on Linux", "Safari on iPhone"... */
export function describeUserAgent(userAgent: string | null | undefined): string {
  if (!userAgent) return "Unknown browser";
  const ua = userAgent;
  const browser = /Edg(e|A|iOS)?\//.test(ua)
    ? "Edge"
    : /OPR\/|Opera/.test(ua)
      ? "Opera"
      : /Firefox\/|FxiOS\//.test(ua)
        ? "Firefox"
        : /Chrome\/|CriOS\/|Chromium\//.test(ua)
          ? "Chrome"
          : /Safari\//.test(ua) && /Version\//.test(ua)
            ? "Safari"
            : /^curl\//i.test(ua)
              ? "curl"
              : undefined;
  const system = /iPhone/.test(ua)
    ? "iPhone"
    : /iPad/.test(ua)
      ? "iPad"
      : /Android/.test(ua)
        ? "Android"
        : /Windows/.test(ua)
          ? "Windows"
          : /Mac OS X|Macintosh/.test(ua)
            ? "macOS"
            : /CrOS/.test(ua)
              ? "ChromeOS"
              : /Linux/.test(ua)
                ? "Linux"
                : undefined;
  if (!browser) return system ? `Unknown browser on ${system}` : ua.slice(0, 40);
  return system ? `${browser} on ${system}` : browser;
}
