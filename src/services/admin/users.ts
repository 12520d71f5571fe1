import { and, eq, isNull, sql } from "drizzle-orm";
import type { AppContext } from "../../context";
import type { Db } from "../../db/connection";
import { accounts, passwordResets, sessions, users } from "../../db/schema";
import { hashPassword, newPasswordProblem } from "../auth/accounts";
import { generateRandomToken, hashToken } from "../auth/tokens";
import { BadRequestError, NotFoundError, ValidationError } from "../errors";
import { authorizeAdmin } from "../policies";
import { revokeTokensOfAccount } from "../user-tokens";
import type { CurrentUser } from "../users";

/** How long a password-reset link works. */
export const PASSWORD_RESET_HOURS = 24;
export const resetPath = (token: string) => `/users/reset-password/${token}`;

/** An account as the admin's "Users" tab lists it. */
export interface AccountForAdminJson {
  id: number;
  login: string;
  name?: string;
  admin: boolean;
  disabled: boolean;
  createdAt: string;
  lastSeenAt?: string;
}

/** Every account, oldest first, with its profile name and when one of its sessions was last used (kept after they end). */
export function listAccounts(ctx: AppContext, current: CurrentUser | undefined): AccountForAdminJson[] {
  authorizeAdmin(current, "Only an administrator can manage users");
  return ctx.db
    .select({ account: accounts, name: users.name })
    .from(accounts)
    .leftJoin(users, eq(users.accountId, accounts.id))
    .orderBy(accounts.id)
    .all()
    .map(({ account, name }) => ({
      id: account.id,
      login: account.externalIdentifier,
      ...(name ? { name } : {}),
      admin: account.admin,
      disabled: account.disabledAt !== null,
      createdAt: account.createdAt.toISOString(),
      ...(account.lastSeenAt ? { lastSeenAt: account.lastSeenAt.toISOString() } : {}),
    }));
}

function getAccount(db: Pick<Db, "select">, accountId: number) {
  const account = db.select().from(accounts).where(eq(accounts.id, accountId)).get();
  if (!account) throw new NotFoundError("User");
  return account;
}

const activeAdminCount = (db: Pick<Db, "select">) =>
  db
    .select({ n: sql<number>`count(*)` })
    .from(accounts)
    .where(and(eq(accounts.admin, true), isNull(accounts.disabledAt)))
    .get()!.n;

/**
 * Grants or revokes admin, or disables or enables an account; an instance always keeps at least
 * one enabled admin. Disabling ends the account's sessions in the same transaction.
 */
export function changeAccount(
  ctx: AppContext,
  current: CurrentUser | undefined,
  accountId: number,
  change: { admin?: unknown; disabled?: unknown },
) {
  authorizeAdmin(current, "Only an administrator can manage users");
  if (change.admin === undefined && change.disabled === undefined) {
    throw new ValidationError({ admin: "give admin or disabled (true or false)" });
  }
  const errors: Record<string, string> = {};
  if (change.admin !== undefined && typeof change.admin !== "boolean") errors.admin = "must be true or false";
  if (change.disabled !== undefined && typeof change.disabled !== "boolean") errors.disabled = "must be true or false";
  if (Object.keys(errors).length) throw new ValidationError(errors);
  ctx.db.transaction((tx) => {
    const account = getAccount(tx, accountId);
    const changes: Partial<typeof accounts.$inferInsert> = {};
    if (typeof change.admin === "boolean") changes.admin = change.admin;
    if (typeof change.disabled === "boolean") changes.disabledAt = change.disabled ? (account.disabledAt ?? ctx.clock.now()) : null;
    tx.update(accounts).set(changes).where(eq(accounts.id, account.id)).run();
    if (activeAdminCount(tx) === 0) throw new BadRequestError("Engram needs at least one administrator who can sign in");
    if (change.disabled === true) tx.delete(sessions).where(eq(sessions.accountId, account.id)).run();
  });
  return listAccounts(ctx, current).find((a) => a.id === accountId)!;
}

/** A one-time link to set a new password (shown to the admin once; only its hash is kept). */
export function createPasswordReset(ctx: Pick<AppContext, "db" | "clock">, accountId: number) {
  getAccount(ctx.db, accountId);
  const token = generateRandomToken(20);
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + PASSWORD_RESET_HOURS * 3_600_000);
  ctx.db
    .insert(passwordResets)
    .values({ tokenHash: hashToken(token), accountId, expiresAt, createdAt: now })
    .run();
  return { path: resetPath(token), expiresAt: expiresAt.toISOString() };
}

export function adminPasswordReset(ctx: AppContext, current: CurrentUser | undefined, accountId: number) {
  authorizeAdmin(current, "Only an administrator can manage users");
  return createPasswordReset(ctx, accountId);
}

/** The account a reset link is for, while it is unused and unexpired. */
export function passwordResetAccount(ctx: AppContext, token: string) {
  const reset = ctx.db
    .select()
    .from(passwordResets)
    .where(eq(passwordResets.tokenHash, hashToken(token)))
    .get();
  if (!reset || reset.usedAt || reset.expiresAt.getTime() <= ctx.clock.now().getTime()) return undefined;
  return getAccount(ctx.db, reset.accountId);
}

/**
 * Uses a reset link once: the new password, every session and every MCP token of the account
 * ended (account recovery: whoever held them must not keep a way in), the link dead.
 */
export async function resetPassword(ctx: AppContext, token: string, newPassword: string) {
  const account = passwordResetAccount(ctx, token);
  if (!account) throw new BadRequestError("This password-reset link has expired or has been used. Ask an administrator for a new one.");
  const problem = newPasswordProblem(newPassword);
  if (problem) throw new ValidationError({ newPassword: problem });
  const passwordHash = await hashPassword(newPassword);
  ctx.db.transaction((tx) => {
    const used = tx
      .update(passwordResets)
      .set({ usedAt: ctx.clock.now() })
      .where(and(eq(passwordResets.tokenHash, hashToken(token)), isNull(passwordResets.usedAt)))
      .returning()
      .get();
    if (!used) throw new BadRequestError("This password-reset link has been used already.");
    tx.update(accounts).set({ passwordHash }).where(eq(accounts.id, account.id)).run();
    tx.delete(sessions).where(eq(sessions.accountId, account.id)).run();
    revokeTokensOfAccount(tx, account.id);
  });
  return account;
}
