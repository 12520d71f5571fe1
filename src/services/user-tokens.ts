import { and, desc, eq, inArray } from "drizzle-orm";
import type { AppContext } from "../context";
import type { DbHandle } from "../db/connection";
import { accounts, users, userTokens } from "../db/schema";
import { generateRandomToken, hashToken } from "./auth/tokens";
import { NotFoundError, ValidationError } from "./errors";
import type { CurrentUser, UserRow } from "./users";

type UserTokenRow = typeof userTokens.$inferSelect;

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

export function generateUserToken(ctx: AppContext, user: UserRow, label: string, expiresInDays?: unknown) {
  const trimmed = label.trim();
  if (trimmed.length < 1 || trimmed.length > 100) throw new ValidationError({ label: "size must be between 1 and 100" });
  const days = validLifetime(expiresInDays);
  // 256 bits: these tokens are long-lived credentials for outside tools.
  const token = `engram_${generateRandomToken(32)}`;
  const now = ctx.clock.now();
  const row = ctx.db
    .insert(userTokens)
    .values({
      userId: user.id,
      label: trimmed,
      tokenHash: hashToken(token),
      createdAt: now,
      expiresAt: days === null ? null : new Date(now.getTime() + days * DAY_MS),
    })
    .returning()
    .get();
  return presentUserToken(row, now, token);
}

export function listUserTokens(ctx: AppContext, user: UserRow) {
  const now = ctx.clock.now();
  return ctx.db
    .select()
    .from(userTokens)
    .where(eq(userTokens.userId, user.id))
    .orderBy(desc(userTokens.id))
    .all()
    .map((row) => presentUserToken(row, now));
}

/** Deletes every token of the account's profile (in the caller's transaction); answers how many. */
export function revokeTokensOfAccount(tx: DbHandle, accountId: number): number {
  const profiles = tx.select({ id: users.id }).from(users).where(eq(users.accountId, accountId)).all();
  if (profiles.length === 0) return 0;
  return tx
    .delete(userTokens)
    .where(
      inArray(
        userTokens.userId,
        profiles.map((p) => p.id),
      ),
    )
    .returning({ id: userTokens.id })
    .all().length;
}

export function deleteUserToken(ctx: AppContext, user: UserRow, tokenId: number) {
  const deleted = ctx.db
    .delete(userTokens)
    .where(and(eq(userTokens.id, tokenId), eq(userTokens.userId, user.id)))
    .returning()
    .get();
  if (!deleted) throw new NotFoundError("Token");
}

/** The user a bearer token belongs to (and marks the token used), or undefined (unknown or expired: 401). */
export function authenticateUserToken(ctx: AppContext, token: string): CurrentUser | undefined {
  const row = ctx.db
    .select({ token: userTokens, user: users, account: accounts })
    .from(userTokens)
    .innerJoin(users, eq(userTokens.userId, users.id))
    .innerJoin(accounts, eq(users.accountId, accounts.id))
    .where(eq(userTokens.tokenHash, hashToken(token)))
    .get();
  const now = ctx.clock.now();
  if (!row || isExpired(row.token, now)) return undefined;
  ctx.db.update(userTokens).set({ lastUsedAt: now }).where(eq(userTokens.id, row.token.id)).run();
  return { user: row.user, account: row.account };
}
