/**
 * Sessions as every request reads them: the session, its account and the account's user, with the
 * account's cache version read in the same snapshot (so a kept copy is never newer than its
 * version says). Three primary-key or unique lookups, each prepared once per database (as one join
 * the same read took SQLite several times as long).
 */
import { and, desc, eq, gt, ne, sql } from "drizzle-orm";
import type { accounts, sessions, users } from "../../db/schema";
import { markSeen } from "../accounts/account-rows";
import { version } from "../cache-versions/cache-versions-store";
import { defineStore, read, type StoreOf, write } from "../define";
import { all, one, prepared, run, type Session, type Step } from "../session";

export type SessionRow = typeof sessions.$inferSelect;
export type AccountRow = typeof accounts.$inferSelect;
export type UserRow = typeof users.$inferSelect;

export interface SessionFound {
  session: SessionRow;
  account: AccountRow;
  user: UserRow | undefined;
  /** The account's cache version when this was read. */
  version: number;
}

/** The session with its account and user, or null when there is no such session (or account). */
export function* lookup(s: Session, sessionId: string): Step<SessionFound | null> {
  const { sessions, accounts, users } = s.t;
  const byId = prepared(s, "session-by-id", () =>
    s.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, sql.placeholder("id"))),
  );
  const accountById = prepared(s, "account-by-id", () =>
    s.db
      .select()
      .from(accounts)
      .where(eq(accounts.id, sql.placeholder("id"))),
  );
  const userOfAccount = prepared(s, "user-of-account", () =>
    s.db
      .select()
      .from(users)
      .where(eq(users.accountId, sql.placeholder("accountId"))),
  );
  const session = yield* one(s, byId, { id: sessionId });
  if (!session) return null;
  const accountVersion = yield* version(s, "account", session.accountId);
  const account = yield* one(s, accountById, { id: session.accountId });
  if (!account) return null;
  const user = yield* one(s, userOfAccount, { accountId: account.id });
  return { session, account, user, version: accountVersion };
}

/**
 * Slides a session's expiry and/or records when it was last used — on the account too: the admin's
 * "Last seen" outlives the session (logout, disabling).
 */
export function* touch(s: Session, sessionId: string, accountId: number, changes: { expiresAt?: Date; lastUsedAt?: Date }): Step<void> {
  yield* run(s, s.db.update(s.t.sessions).set(changes).where(eq(s.t.sessions.id, sessionId)));
  if (changes.lastUsedAt) yield* markSeen(s, accountId, changes.lastUsedAt);
}

/** Ends a session. */
export function* remove(s: Session, sessionId: string): Step<void> {
  yield* run(s, s.db.delete(s.t.sessions).where(eq(s.t.sessions.id, sessionId)));
}

/** Starts a session (its id is the hash of the cookie's token); the account is seen now. */
export function* create(
  s: Session,
  session: { id: string; accountId: number; expiresAt: Date; userAgent: string | null },
  now: Date,
): Step<void> {
  yield* run(s, s.db.insert(s.t.sessions).values({ ...session, createdAt: now, lastUsedAt: now }));
  yield* markSeen(s, session.accountId, now);
}

/** The account's sessions that have not expired, most recently used first. */
export function* listOf(s: Session, accountId: number, now: Date) {
  const { sessions } = s.t;
  return yield* all(
    s,
    s.db
      .select({ id: sessions.id, createdAt: sessions.createdAt, lastUsedAt: sessions.lastUsedAt, userAgent: sessions.userAgent })
      .from(sessions)
      .where(and(eq(sessions.accountId, accountId), gt(sessions.expiresAt, now)))
      .orderBy(desc(sessions.lastUsedAt), desc(sessions.createdAt)),
  );
}

/** Ends every session of the account except the one given (all of them when it is undefined); answers how many ended. */
export function* removeAllOf(s: Session, accountId: number, keepSessionId?: string): Step<number> {
  const { sessions } = s.t;
  const where = keepSessionId ? and(eq(sessions.accountId, accountId), ne(sessions.id, keepSessionId)) : eq(sessions.accountId, accountId);
  return yield* run(s, s.db.delete(sessions).where(where));
}

export const sessionsStore = defineStore({
  lookup: read(lookup),
  accountVersion: read((s: Session, accountId: number) => version(s, "account", accountId)),
  touch: write(touch),
  remove: write(remove),
  create: write(create),
  listOf: read(listOf),
  removeAllOf: write(removeAllOf),
});
export type SessionsStore = StoreOf<typeof sessionsStore>;
