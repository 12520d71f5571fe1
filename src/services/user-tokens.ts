import { and, desc, eq } from "drizzle-orm";
import type { AppContext } from "../context";
import { accounts, users, userTokens } from "../db/schema";
import { generateRandomToken, hashToken } from "./auth/tokens";
import { NotFoundError, ValidationError } from "./errors";
import type { CurrentUser, UserRow } from "./users";

type UserTokenRow = typeof userTokens.$inferSelect;

/** The UserToken JSON. The token text exists only in the answer that created it. */
export function presentUserToken(row: UserTokenRow, token = "") {
  return {
    id: row.id,
    userId: row.userId,
    label: row.label,
    token,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    status: "active",
  };
}
export type UserTokenJson = ReturnType<typeof presentUserToken>;

export function generateUserToken(ctx: AppContext, user: UserRow, label: string) {
  const trimmed = label.trim();
  if (trimmed.length < 1 || trimmed.length > 100) throw new ValidationError({ label: "size must be between 1 and 100" });
  // 256 bits: these tokens are long-lived credentials for outside tools.
  const token = `engram_${generateRandomToken(32)}`;
  const row = ctx.db
    .insert(userTokens)
    .values({ userId: user.id, label: trimmed, tokenHash: hashToken(token), createdAt: ctx.clock.now() })
    .returning()
    .get();
  return presentUserToken(row, token);
}

export function listUserTokens(ctx: AppContext, user: UserRow) {
  return ctx.db
    .select()
    .from(userTokens)
    .where(eq(userTokens.userId, user.id))
    .orderBy(desc(userTokens.id))
    .all()
    .map((row) => presentUserToken(row));
}

export function deleteUserToken(ctx: AppContext, user: UserRow, tokenId: number) {
  const deleted = ctx.db
    .delete(userTokens)
    .where(and(eq(userTokens.id, tokenId), eq(userTokens.userId, user.id)))
    .returning()
    .get();
  if (!deleted) throw new NotFoundError("Token");
}

/** The user a bearer token belongs to (and marks the token used), or undefined. */
export function authenticateUserToken(ctx: AppContext, token: string): CurrentUser | undefined {
  const row = ctx.db
    .select({ token: userTokens, user: users, account: accounts })
    .from(userTokens)
    .innerJoin(users, eq(userTokens.userId, users.id))
    .innerJoin(accounts, eq(users.accountId, accounts.id))
    .where(eq(userTokens.tokenHash, hashToken(token)))
    .get();
  if (!row) return undefined;
  ctx.db.update(userTokens).set({ lastUsedAt: ctx.clock.now() }).where(eq(userTokens.id, row.token.id)).run();
  return { user: row.user, account: row.account };
}
