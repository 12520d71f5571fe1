import type { AppContext } from "../../context";

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
  return ctx.stores.accounts.ensureAccount(name, name === "admin", ctx.clock.now());
}

const profiles = () => Object.entries(TEST_PROFILES).map(([login, name]) => ({ login, name, admin: login === "admin" }));

/** Creates the test identities and the profiles the reference has after a reset. */
export function seedTestProfiles(ctx: AppContext): Promise<void> {
  return ctx.stores.users.seedProfiles(profiles(), ctx.clock.now());
}

export function isTestIdentity(name: string, password: string) {
  return TEST_IDENTITIES.includes(name) && password === TEST_PASSWORD;
}
