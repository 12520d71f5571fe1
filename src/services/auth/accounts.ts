import type { AppContext } from "../../context";
import { ValidationError } from "../errors";
import { LIMITS } from "./rate-limiter";

export const PASSWORD_MIN_LENGTH = 8;
export const DISABLED_ACCOUNT_MESSAGE = "This account is disabled. Ask an administrator of this Engram.";
const PASSWORD_MAX_LENGTH = 256;
const USERNAME_PATTERN = /^[A-Za-z0-9_.@-]{3,50}$/;
/** A real argon2id hash of a throw-away password, verified against for unknown users so timing does not tell. */
let decoyHash: Promise<string> | undefined;

/** The message for a new password that is too short or too long, undefined when it is fine. */
export function newPasswordProblem(password: string): string | undefined {
  if (!password) return "Please enter a password";
  if (password.length < PASSWORD_MIN_LENGTH) return `The password must be at least ${PASSWORD_MIN_LENGTH} characters long`;
  if (password.length > PASSWORD_MAX_LENGTH) return `The password must be at most ${PASSWORD_MAX_LENGTH} characters long`;
  return undefined;
}

function validateCredentials(username: string, password: string) {
  const errors: Record<string, string> = {};
  if (!username.trim()) errors.username = "Please enter a username";
  else if (!USERNAME_PATTERN.test(username)) errors.username = "Use 3 to 50 letters, digits or . _ - @ (no spaces)";
  const passwordProblem = newPasswordProblem(password);
  if (passwordProblem) errors.password = passwordProblem;
  if (Object.keys(errors).length) throw new ValidationError(errors);
}

export const hashPassword = (password: string) => Bun.password.hash(password, { algorithm: "argon2id" });

/** Verifies the password against the hash, or against a decoy hash when there is none, so timing does not tell. */
async function verifyPassword(password: string, hash: string | null | undefined) {
  decoyHash ??= hashPassword("engram-decoy-password");
  return (await Bun.password.verify(password, hash ?? (await decoyHash))) && !!hash;
}

/**
 * Creates an account with a password. The first account of a fresh instance is an admin.
 * The admin decision and the insert happen in one transaction so two first sign-ups cannot both win.
 * Sign-ups are limited per client address (LIMITS.signUp); a refused form does not count.
 */
export async function signUp(ctx: AppContext, username: string, password: string, clientAddress: string) {
  validateCredentials(username, password);
  const now = ctx.clock.now().getTime();
  const key = `sign-up:${clientAddress}`;
  await ctx.signInLimiter.attempt([key], [[key, LIMITS.signUp]], now);
  const passwordHash = await hashPassword(password);
  const account = await ctx.stores.accounts.signUp(username, passwordHash, ctx.clock.now());
  if (account === "taken") throw new ValidationError({ username: "This username is already taken" });
  return account;
}

/**
 * Checks a username and password. Failures are limited per account name from every address
 * (after 5, a backoff from 1 minute doubling to 15) and per client address (100 in 15 minutes,
 * unknown names included); a success clears only the account's count, so one user's failures
 * never lock out another user signing in from the same address.
 */
export async function signIn(ctx: AppContext, username: string, password: string, clientAddress: string) {
  const errors: Record<string, string> = {};
  if (!username.trim()) errors.username = "Please enter a username";
  if (!password) errors.password = "Please enter a password";
  if (Object.keys(errors).length) throw new ValidationError(errors);

  const now = ctx.clock.now().getTime();
  // Account names are at most 50 characters: a longer one names no account, and does not grow the table.
  const accountKey = `account:${username.slice(0, 100)}`;
  const addressKey = `address:${clientAddress}`;
  // Checked and counted before the slow hash, so parallel guesses cannot all slip past the limit;
  // a success takes its count back.
  await ctx.signInLimiter.attempt(
    [accountKey, addressKey],
    [
      [accountKey, LIMITS.account],
      [addressKey, LIMITS.address],
    ],
    now,
  );
  const account = await ctx.stores.accounts.byLogin(username);
  if (!(await verifyPassword(password, account?.passwordHash)) || !account) {
    throw new ValidationError({ password: "Wrong username or password" });
  }
  await ctx.signInLimiter.clear(accountKey);
  await ctx.signInLimiter.forgive(addressKey, LIMITS.address);
  if (account.disabledAt) throw new ValidationError({ password: DISABLED_ACCOUNT_MESSAGE });
  return account;
}

/**
 * Changes the signed-in account's password after checking the current one (wrong ones are limited
 * like sign-ins, per account). The caller ends the account's other sessions.
 */
export async function changePassword(ctx: AppContext, accountId: number, currentPassword: string, newPassword: string) {
  const now = ctx.clock.now().getTime();
  const key = `password:${accountId}`;
  await ctx.signInLimiter.check([key], now);
  const errors: Record<string, string> = {};
  const newProblem = newPasswordProblem(newPassword);
  if (newProblem) errors.newPassword = newProblem;
  if (!currentPassword) errors.currentPassword = "Please enter your current password";
  if (Object.keys(errors).length) throw new ValidationError(errors);
  await ctx.signInLimiter.attempt([key], [[key, LIMITS.passwordChange]], now);
  const account = await ctx.stores.accounts.byId(accountId);
  if (!(await verifyPassword(currentPassword, account?.passwordHash))) {
    throw new ValidationError({
      currentPassword: account?.passwordHash ? "The current password is wrong" : "This account has no password",
    });
  }
  await ctx.signInLimiter.clear(key);
  await ctx.stores.accounts.setPasswordHash(accountId, await hashPassword(newPassword));
}
