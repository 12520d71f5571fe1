/**
 * Users (the profiles of accounts) and their MCP tokens. A token is kept as the hash of its text
 * only; a bearer request finds its user and account and marks the token used in one write unit.
 */
import { and, desc, eq, inArray } from "drizzle-orm";
import { DEFAULT_DAILY_ASSIMILATION_COUNT, DEFAULT_SPACE_INTERVALS, type users, type userTokens } from "../../db/schema";
import { ensureAccount } from "../accounts/account-rows";
import { defineStore, read, type StoreOf, write } from "../define";
import { convertTrackers, lockTrackersToConvert, type TrackerConversion } from "../memory/trackers";
import { all, forUpdate, one, run, type Session, type Step } from "../session";

export type UserRow = typeof users.$inferSelect;
export type UserTokenRow = typeof userTokens.$inferSelect;

export function* byAccount(s: Session, accountId: number): Step<UserRow | undefined> {
  return yield* one(s, s.db.select().from(s.t.users).where(eq(s.t.users.accountId, accountId)));
}

export function* byId(s: Session, userId: number): Step<UserRow | undefined> {
  return yield* one(s, s.db.select().from(s.t.users).where(eq(s.t.users.id, userId)));
}

/** The account's profile with the default learning settings, or "exists" when it has one already. */
export function* createProfile(s: Session, accountId: number, name: string, now: Date): Step<UserRow | "exists"> {
  if (yield* byAccount(s, accountId)) return "exists";
  const [user] = yield* all(
    s,
    s.db
      .insert(s.t.users)
      .values({
        accountId,
        name,
        dailyAssimilationCount: DEFAULT_DAILY_ASSIMILATION_COUNT,
        spaceIntervals: DEFAULT_SPACE_INTERVALS,
        createdAt: now,
      })
      // A profile made meanwhile by a request at the same time (PostgreSQL) is left as it is.
      .onConflictDoNothing()
      .returning(),
  );
  return user ?? "exists";
}

/** How a change of scheduler converts the user's trackers. */
export interface TrackerConversionPlan {
  to: "fsrs" | "forgetting-curve";
  convert: TrackerConversion;
}

/**
 * Changes a user's own settings; answers the user as it is now (undefined: no such user). A change
 * of scheduler converts the user's trackers once, in the same unit (the memory store's body):
 * `conversionOf` says how, from the user as this unit finds it (undefined: no conversion).
 */
export function* updateSettings(
  s: Session,
  userId: number,
  changes: Partial<UserRow>,
  conversionOf?: (before: UserRow) => TrackerConversionPlan | undefined,
): Step<UserRow | undefined> {
  const u = s.t.users;
  // Changes of one user's settings take turns from here, each deciding from the one before's
  // scheduler (the lock its UPDATE would take: a review logging a recall of the user does not wait).
  const before = yield* one(s, forUpdate(s, s.db.select().from(u).where(eq(u.id, userId)), "no key update"));
  if (!before) return undefined;
  const conversion = conversionOf?.(before);
  // Then, in the order every unit takes them: the trackers it writes (as a review locks its tracker
  // first), the user's learning version (its UPDATE's trigger; an assimilation raises it first too),
  // then the recall version and the user's aggregates that converting the trackers changes.
  const locked = conversion ? yield* lockTrackersToConvert(s, userId, conversion.to) : [];
  const [user] = yield* all(s, s.db.update(u).set(changes).where(eq(u.id, userId)).returning());
  if (conversion) yield* convertTrackers(s, userId, locked, conversion.to, conversion.convert);
  return user;
}

/**
 * The test identities' accounts and the profiles they have after a test reset (non-production),
 * each created when missing.
 */
export function* seedProfiles(s: Session, profiles: { login: string; name: string; admin: boolean }[], now: Date): Step<void> {
  for (const profile of profiles) {
    const account = yield* ensureAccount(s, profile.login, profile.admin, now);
    yield* run(
      s,
      s.db
        .insert(s.t.users)
        .values({
          accountId: account.id,
          name: profile.name,
          dailyAssimilationCount: DEFAULT_DAILY_ASSIMILATION_COUNT,
          spaceIntervals: DEFAULT_SPACE_INTERVALS,
          createdAt: now,
        })
        .onConflictDoNothing(),
    );
  }
}

export function* createToken(
  s: Session,
  token: { userId: number; label: string; tokenHash: string; expiresAt: Date | null },
  now: Date,
): Step<UserTokenRow> {
  const [row] = yield* all(
    s,
    s.db
      .insert(s.t.userTokens)
      .values({ ...token, createdAt: now })
      .returning(),
  );
  return row!;
}

/** A user's tokens, newest first. */
export function* tokensOf(s: Session, userId: number): Step<UserTokenRow[]> {
  const { userTokens } = s.t;
  return yield* all(s, s.db.select().from(userTokens).where(eq(userTokens.userId, userId)).orderBy(desc(userTokens.id)));
}

/** Deletes one of the user's tokens; answers whether there was such a token. */
export function* deleteToken(s: Session, userId: number, tokenId: number): Step<boolean> {
  const { userTokens } = s.t;
  return (yield* run(s, s.db.delete(userTokens).where(and(eq(userTokens.id, tokenId), eq(userTokens.userId, userId))))) > 0;
}

/** Deletes every token of the account's profile; answers how many. */
export function* revokeTokensOfAccount(s: Session, accountId: number): Step<number> {
  const { users, userTokens } = s.t;
  const profiles = yield* all(s, s.db.select({ id: users.id }).from(users).where(eq(users.accountId, accountId)));
  if (profiles.length === 0) return 0;
  return yield* run(
    s,
    s.db.delete(userTokens).where(
      inArray(
        userTokens.userId,
        profiles.map((p) => p.id),
      ),
    ),
  );
}

/**
 * The user and account a bearer token belongs to, the token marked used now; undefined for an
 * unknown or expired token.
 */
export function* authenticateToken(s: Session, tokenHash: string, now: Date) {
  const { userTokens, users, accounts } = s.t;
  const row = yield* one(
    s,
    s.db
      .select({ token: userTokens, user: users, account: accounts })
      .from(userTokens)
      .innerJoin(users, eq(userTokens.userId, users.id))
      .innerJoin(accounts, eq(users.accountId, accounts.id))
      .where(eq(userTokens.tokenHash, tokenHash)),
  );
  if (!row || (row.token.expiresAt !== null && row.token.expiresAt.getTime() <= now.getTime())) return undefined;
  yield* run(s, s.db.update(userTokens).set({ lastUsedAt: now }).where(eq(userTokens.id, row.token.id)));
  return { user: row.user, account: row.account };
}

export const usersStore = defineStore({
  byAccount: read(byAccount),
  byId: read(byId),
  createProfile: write(createProfile),
  updateSettings: write(updateSettings),
  seedProfiles: write(seedProfiles),
  createToken: write(createToken),
  tokensOf: read(tokensOf),
  deleteToken: write(deleteToken),
  revokeTokensOfAccount: write(revokeTokensOfAccount),
  authenticateToken: write(authenticateToken),
});
export type UsersStore = StoreOf<typeof usersStore>;
