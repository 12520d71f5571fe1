import { eq } from "drizzle-orm";
import type { AppContext } from "../../context";
import { accounts, DEFAULT_DAILY_ASSIMILATION_COUNT, DEFAULT_SPACE_INTERVALS, users } from "../../db/schema";

/** Non-production basic-auth identities; all use the password "password". */
export const TEST_IDENTITIES = ["user", "old_learner", "another_old_learner", "manual", "admin", "non_admin", "a_trainer"];
export const TEST_PASSWORD = "password";

/** Identities that have a profile after a reset, with their names. */
export const TEST_PROFILES: Record<string, string> = {
  old_learner: "Old Learner",
  another_old_learner: "Another Old Learner",
  admin: "admin",
  non_admin: "Non Admin",
  a_trainer: "A Trainer",
};

/** The account of a test identity, created on first use. */
export function ensureTestAccount(ctx: AppContext, name: string) {
  const existing = ctx.db.select().from(accounts).where(eq(accounts.externalIdentifier, name)).get();
  if (existing) return existing;
  return ctx.db
    .insert(accounts)
    .values({ externalIdentifier: name, passwordHash: null, admin: name === "admin", createdAt: ctx.clock.now() })
    .returning()
    .get();
}

/** Creates the test identities and the profiles the reference has after a reset. */
export function seedTestProfiles(ctx: AppContext) {
  for (const [identity, name] of Object.entries(TEST_PROFILES)) {
    const account = ensureTestAccount(ctx, identity);
    ctx.db
      .insert(users)
      .values({
        accountId: account.id,
        name,
        dailyAssimilationCount: DEFAULT_DAILY_ASSIMILATION_COUNT,
        spaceIntervals: DEFAULT_SPACE_INTERVALS,
        createdAt: ctx.clock.now(),
      })
      .onConflictDoNothing()
      .run();
  }
}

export function isTestIdentity(name: string, password: string) {
  return TEST_IDENTITIES.includes(name) && password === TEST_PASSWORD;
}
