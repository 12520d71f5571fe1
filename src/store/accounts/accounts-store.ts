/**
 * Accounts (sign-in identities) and their one-time password-reset links. Decisions that must see
 * every account at once (the first account is the admin; an instance keeps an enabled admin) are
 * taken inside the write unit that changes them, so two processes cannot both win them.
 */
import { and, count, eq, isNull, ne, sql } from "drizzle-orm";
import type { passwordResets } from "../../db/schema";
import { defineStore, read, type StoreOf, write } from "../define";
import { all, forUpdate, one, rawAll, run, type Session, type Step } from "../session";
import { removeAllOf } from "../sessions/sessions-store";
import { revokeTokensOfAccount } from "../users/users-store";
import { type AccountRow, byId, byLogin, ensureAccount, markSeen } from "./account-rows";

export type { AccountRow } from "./account-rows";
export { byId, byLogin, ensureAccount, markSeen };
export type PasswordResetRow = typeof passwordResets.$inferSelect;

/** Whether the instance has no account yet (its first sign-up becomes the admin). */
export function* none(s: Session): Step<boolean> {
  const row = yield* one(s, s.db.select({ n: count() }).from(s.t.accounts));
  return (row?.n ?? 0) === 0;
}

/** Every account, oldest first, with its profile's name. */
export function* listWithNames(s: Session): Step<{ account: AccountRow; name: string | null }[]> {
  const { accounts, users } = s.t;
  return yield* all(
    s,
    s.db
      .select({ account: accounts, name: users.name })
      .from(accounts)
      .leftJoin(users, eq(users.accountId, accounts.id))
      .orderBy(accounts.id),
  );
}

/** Any fixed number names the lock sign-ups take turns on (pg_advisory_xact_lock). */
const SIGN_UP_LOCK = 727_001;

/**
 * "The login is free" and "no account yet, so this one is the admin" are read before the insert:
 * on PostgreSQL sign-ups take turns on a lock held until the unit commits, so two at once on any
 * processes see each other. SQLite: a write unit holds the database's write lock already.
 */
function* signUpsTakeTurns(s: Session): Step<void> {
  if (s.dialect === "sqlite") return;
  yield* rawAll(s, sql`SELECT pg_advisory_xact_lock(${SIGN_UP_LOCK})`);
}

/** A new account with a password; the first of the instance is an admin. "taken" when the login is. */
export function* signUp(s: Session, login: string, passwordHash: string, now: Date): Step<AccountRow | "taken"> {
  yield* signUpsTakeTurns(s);
  if (yield* byLogin(s, login)) return "taken";
  const admin = yield* none(s);
  const [account] = yield* all(
    s,
    s.db.insert(s.t.accounts).values({ externalIdentifier: login, passwordHash, admin, createdAt: now }).returning(),
  );
  return account!;
}

export function* setPasswordHash(s: Session, accountId: number, passwordHash: string): Step<void> {
  yield* run(s, s.db.update(s.t.accounts).set({ passwordHash }).where(eq(s.t.accounts.id, accountId)));
}

/** Makes the account an admin and enables it (`engram admin grant`). */
export function* grantAdmin(s: Session, accountId: number): Step<void> {
  yield* run(s, s.db.update(s.t.accounts).set({ admin: true, disabledAt: null }).where(eq(s.t.accounts.id, accountId)));
}

/**
 * Grants or revokes admin, disables or enables an account, unless that would leave the instance
 * without an enabled admin ("last-admin"; nothing changes). Disabling ends the account's sessions.
 */
export function* changeAccount(
  s: Session,
  accountId: number,
  change: { admin?: boolean; disabled?: boolean },
  now: Date,
): Step<"changed" | "not-found" | "last-admin"> {
  const { accounts } = s.t;
  // Locked (PostgreSQL): each change writes both fields from this row, and would undo another change made meanwhile.
  const account = yield* one(s, forUpdate(s, s.db.select().from(accounts).where(eq(accounts.id, accountId))));
  if (!account) return "not-found";
  const admin = change.admin ?? account.admin;
  const disabledAt = change.disabled === undefined ? account.disabledAt : change.disabled ? (account.disabledAt ?? now) : null;
  // The other enabled admins, locked (PostgreSQL) so that two admins revoking each other at once
  // cannot both pass; on SQLite the write unit holds the lock already.
  const others = yield* all(
    s,
    forUpdate(
      s,
      s.db
        .select({ id: accounts.id })
        .from(accounts)
        .where(and(eq(accounts.admin, true), isNull(accounts.disabledAt), ne(accounts.id, accountId))),
    ),
  );
  if (others.length === 0 && !(admin && disabledAt === null)) return "last-admin";
  yield* run(s, s.db.update(accounts).set({ admin, disabledAt }).where(eq(accounts.id, accountId)));
  if (change.disabled === true) yield* removeAllOf(s, accountId);
  return "changed";
}

/** Keeps a password-reset link (by its token's hash); false when there is no such account. */
export function* createPasswordReset(s: Session, accountId: number, tokenHash: string, expiresAt: Date, now: Date): Step<boolean> {
  if (!(yield* byId(s, accountId))) return false;
  yield* run(s, s.db.insert(s.t.passwordResets).values({ tokenHash, accountId, expiresAt, createdAt: now }));
  return true;
}

/** The account a reset link is for, while the link is unused and unexpired. */
export function* passwordResetAccount(s: Session, tokenHash: string, now: Date): Step<AccountRow | undefined> {
  const { passwordResets } = s.t;
  const reset = yield* one(s, s.db.select().from(passwordResets).where(eq(passwordResets.tokenHash, tokenHash)));
  if (!reset || reset.usedAt || reset.expiresAt.getTime() <= now.getTime()) return undefined;
  return yield* byId(s, reset.accountId);
}

/**
 * Uses a reset link once: the new password, every session and every MCP token of the account
 * ended, the link dead. False when the link was used already (by a request in between).
 */
export function* spendPasswordReset(s: Session, tokenHash: string, accountId: number, passwordHash: string, now: Date): Step<boolean> {
  const { passwordResets } = s.t;
  const used = yield* run(
    s,
    s.db
      .update(passwordResets)
      .set({ usedAt: now })
      .where(and(eq(passwordResets.tokenHash, tokenHash), isNull(passwordResets.usedAt))),
  );
  if (used === 0) return false;
  yield* setPasswordHash(s, accountId, passwordHash);
  yield* removeAllOf(s, accountId);
  yield* revokeTokensOfAccount(s, accountId);
  return true;
}

export const accountsStore = defineStore({
  byId: read(byId),
  byLogin: read(byLogin),
  none: read(none),
  listWithNames: read(listWithNames),
  signUp: write(signUp),
  ensureAccount: write(ensureAccount),
  setPasswordHash: write(setPasswordHash),
  grantAdmin: write(grantAdmin),
  changeAccount: write(changeAccount),
  createPasswordReset: write(createPasswordReset),
  passwordResetAccount: read(passwordResetAccount),
  spendPasswordReset: write(spendPasswordReset),
});
export type AccountsStore = StoreOf<typeof accountsStore>;
