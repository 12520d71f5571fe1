import type { AppContext } from "../context";
import type { UserTokenRow } from "../store/users/users-store";
import { generateRandomToken, hashToken } from "./auth/tokens";
import { NotFoundError, ValidationError } from "./errors";
import type { CurrentUser, UserRow } from "./users";

/** How long a new token lives unless chosen otherwise. */
export const DEFAULT_TOKEN_LIFETIME_DAYS = 90;
/** The longest lifetime that can be chosen in days (null asks for a token that never expires). */
export const MAX_TOKEN_LIFETIME_DAYS = 3650;
const DAY_MS = 86_400_000;

const isExpired = (row: UserTokenRow, now: Date) => row.expiresAt !== null && row.expiresAt.getTime() <= now.getTime();

/** The UserToken JSON. The token text exists only in the answer that created it; expiresAt null: never. */
export function presentUserToken(row: UserTokenRow, now: Date, token = "") {
  return {
    id: row.id,
    userId: row.userId,
    label: row.label,
    token,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    status: isExpired(row, now) ? ("expired" as const) : ("active" as const),
  };
}
export type UserTokenJson = ReturnType<typeof presentUserToken>;

/** A lifetime in days (undefined: the default), or null for a token that never expires. */
function validLifetime(expiresInDays: unknown): number | null {
  if (expiresInDays === undefined) return DEFAULT_TOKEN_LIFETIME_DAYS;
  if (expiresInDays === null) return null;
  if (
    typeof expiresInDays !== "number" ||
    !Number.isInteger(expiresInDays) ||
    expiresInDays < 1 ||
    expiresInDays > MAX_TOKEN_LIFETIME_DAYS
  ) {
    throw new ValidationError({ expiresInDays: `must be a whole number of days from 1 to ${MAX_TOKEN_LIFETIME_DAYS}, or null for never` });
  }
  return expiresInDays;
}

export async function generateUserToken(ctx: AppContext, user: UserRow, label: string, expiresInDays?: unknown) {
  const trimmed = label.trim();
  if (trimmed.length < 1 || trimmed.length > 100) throw new ValidationError({ label: "size must be between 1 and 100" });
  const days = validLifetime(expiresInDays);
  // 256 bits: these tokens are long-lived credentials for outside tools.
  const token = `engram_${generateRandomToken(32)}`;
  const now = ctx.clock.now();
  const row = await ctx.stores.users.createToken(
    {
      userId: user.id,
      label: trimmed,
      tokenHash: hashToken(token),
      expiresAt: days === null ? null : new Date(now.getTime() + days * DAY_MS),
    },
    now,
  );
  return presentUserToken(row, now, token);
}

export async function listUserTokens(ctx: AppContext, user: UserRow) {
  const now = ctx.clock.now();
  return (await ctx.stores.users.tokensOf(user.id)).map((row) => presentUserToken(row, now));
}

/** Deletes every token of the account's profile; answers how many. */
export function revokeTokensOfAccount(ctx: AppContext, accountId: number): Promise<number> {
  return ctx.stores.users.revokeTokensOfAccount(accountId);
}

export async function deleteUserToken(ctx: AppContext, user: UserRow, tokenId: number) {
  if (!(await ctx.stores.users.deleteToken(user.id, tokenId))) throw new NotFoundError("Token");
}

/** The user a bearer token belongs to (and marks the token used), or undefined (unknown or expired: 401). */
export function authenticateUserToken(ctx: AppContext, token: string): Promise<CurrentUser | undefined> {
  return ctx.stores.users.authenticateToken(hashToken(token), ctx.clock.now());
}
