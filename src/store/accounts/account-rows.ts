/**
 * The accounts store's bodies that other stores compose (the sessions store marks an account
 * seen, the users store seeds the test identities): apart from accounts-store.ts, which composes
 * those stores' bodies in turn, so that no import goes round in a circle.
 */
import { eq } from "drizzle-orm";
import type { accounts } from "../../db/schema";
import { all, one, run, type Session, type Step } from "../session";

export type AccountRow = typeof accounts.$inferSelect;

export function* byId(s: Session, accountId: number): Step<AccountRow | undefined> {
  return yield* one(s, s.db.select().from(s.t.accounts).where(eq(s.t.accounts.id, accountId)));
}

export function* byLogin(s: Session, login: string): Step<AccountRow | undefined> {
  return yield* one(s, s.db.select().from(s.t.accounts).where(eq(s.t.accounts.externalIdentifier, login)));
}

/** The account of a login, created without a password when missing (the non-production test identities). */
export function* ensureAccount(s: Session, login: string, admin: boolean, now: Date): Step<AccountRow> {
  const existing = yield* byLogin(s, login);
  if (existing) return existing;
  const [account] = yield* all(
    s,
    s.db
      .insert(s.t.accounts)
      .values({ externalIdentifier: login, passwordHash: null, admin, createdAt: now })
      // An account made meanwhile by a request at the same time (PostgreSQL) is the one answered.
      .onConflictDoNothing()
      .returning(),
  );
  return account ?? (yield* byLogin(s, login))!;
}

/** When one of the account's sessions was last used: the admin's "Last seen", kept after the sessions end. */
export function* markSeen(s: Session, accountId: number, at: Date): Step<void> {
  yield* run(s, s.db.update(s.t.accounts).set({ lastSeenAt: at }).where(eq(s.t.accounts.id, accountId)));
}
