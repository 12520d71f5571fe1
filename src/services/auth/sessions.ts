import { eq, sql } from "drizzle-orm";
import type { Db } from "../../db/connection";
import { accounts, sessions, users } from "../../db/schema";
import { prepared } from "../../db/prepared";
import { generateRandomToken, hashToken } from "./tokens";

/** Sessions last 30 days and slide: a session used in its second half is extended. */
export const SESSION_LIFETIME_MS = 30 * 24 * 3_600_000;
const RENEW_WHEN_LEFT_MS = SESSION_LIFETIME_MS / 2;

export type Account = typeof accounts.$inferSelect;

/** Creates a session for the account; answers the cookie token (128 bits) and its expiry. */
export function createSession(db: Db, accountId: number, now: Date) {
  const token = generateRandomToken(16);
  const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_MS);
  db.insert(sessions).values({ id: hashToken(token), accountId, expiresAt }).run();
  return { token, expiresAt };
}

/** Every request reads its session: the query is built and prepared once per database. */
function sessionLookup(db: Db) {
  return prepared(db, "session-by-id", () => db
    .select({ session: sessions, account: accounts, user: users })
    .from(sessions)
    .innerJoin(accounts, eq(sessions.accountId, accounts.id))
    .leftJoin(users, eq(users.accountId, accounts.id))
    .where(eq(sessions.id, sql.placeholder("id")))
    .prepare());
}

/**
 * The account (and its user profile, if any) behind a session token, or undefined when the
 * token is unknown or expired. `renewedUntil` is set when the expiry was extended, so the
 * cookie can be refreshed.
 */
export function validateSessionToken(db: Db, token: string, now: Date) {
  const id = hashToken(token);
  const row = sessionLookup(db).get({ id });
  if (!row) return undefined;
  if (row.session.expiresAt.getTime() <= now.getTime()) {
    db.delete(sessions).where(eq(sessions.id, id)).run();
    return undefined;
  }
  let renewedUntil: Date | undefined;
  if (row.session.expiresAt.getTime() - now.getTime() < RENEW_WHEN_LEFT_MS) {
    renewedUntil = new Date(now.getTime() + SESSION_LIFETIME_MS);
    db.update(sessions).set({ expiresAt: renewedUntil }).where(eq(sessions.id, id)).run();
  }
  return { account: row.account, user: row.user ?? undefined, renewedUntil };
}

export function invalidateSession(db: Db, token: string) {
  db.delete(sessions).where(eq(sessions.id, hashToken(token))).run();
}
