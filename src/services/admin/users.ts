import type { AppContext } from "../../context";
import { hashPassword, newPasswordProblem } from "../auth/accounts";
import { generateRandomToken, hashToken } from "../auth/tokens";
import { BadRequestError, NotFoundError, ValidationError } from "../errors";
import { authorizeAdmin } from "../policies";
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
export async function listAccounts(ctx: AppContext, current: CurrentUser | undefined): Promise<AccountForAdminJson[]> {
  authorizeAdmin(current, "Only an administrator can manage users");
  return (await ctx.stores.accounts.listWithNames()).map(({ account, name }) => ({
    id: account.id,
    login: account.externalIdentifier,
    ...(name ? { name } : {}),
    admin: account.admin,
    disabled: account.disabledAt !== null,
    createdAt: account.createdAt.toISOString(),
    ...(account.lastSeenAt ? { lastSeenAt: account.lastSeenAt.toISOString() } : {}),
  }));
}

/**
 * Grants or revokes admin, or disables or enables an account; an instance always keeps at least
 * one enabled admin. Disabling ends the account's sessions in the same transaction.
 */
export async function changeAccount(
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
  const outcome = await ctx.stores.accounts.changeAccount(
    accountId,
    { admin: change.admin as boolean | undefined, disabled: change.disabled as boolean | undefined },
    ctx.clock.now(),
  );
  if (outcome === "not-found") throw new NotFoundError("User");
  if (outcome === "last-admin") throw new BadRequestError("Engram needs at least one administrator who can sign in");
  return (await listAccounts(ctx, current)).find((a) => a.id === accountId)!;
}

/** A one-time link to set a new password (shown to the admin once; only its hash is kept). */
export async function createPasswordReset(ctx: Pick<AppContext, "stores" | "clock">, accountId: number) {
  const token = generateRandomToken(20);
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + PASSWORD_RESET_HOURS * 3_600_000);
  if (!(await ctx.stores.accounts.createPasswordReset(accountId, hashToken(token), expiresAt, now))) throw new NotFoundError("User");
  return { path: resetPath(token), expiresAt: expiresAt.toISOString() };
}

export function adminPasswordReset(ctx: AppContext, current: CurrentUser | undefined, accountId: number) {
  authorizeAdmin(current, "Only an administrator can manage users");
  return createPasswordReset(ctx, accountId);
}

/** The account a reset link is for, while it is unused and unexpired. */
export function passwordResetAccount(ctx: AppContext, token: string) {
  return ctx.stores.accounts.passwordResetAccount(hashToken(token), ctx.clock.now());
}

/**
 * Uses a reset link once: the new password, every session and every MCP token of the account
 * ended (account recovery: whoever held them must not keep a way in), the link dead.
 */
export async function resetPassword(ctx: AppContext, token: string, newPassword: string) {
  const account = await passwordResetAccount(ctx, token);
  if (!account) throw new BadRequestError("This password-reset link has expired or has been used. Ask an administrator for a new one.");
  const problem = newPasswordProblem(newPassword);
  if (problem) throw new ValidationError({ newPassword: problem });
  const passwordHash = await hashPassword(newPassword);
  if (!(await ctx.stores.accounts.spendPasswordReset(hashToken(token), account.id, passwordHash, ctx.clock.now()))) {
    throw new BadRequestError("This password-reset link has been used already.");
  }
  return account;
}
