import type { AppContext } from "../../context";
import { seedTestProfiles } from "./test-identities";

/**
 * Empties every table (the sign-in limits and virtual tables included), recreates the test
 * profiles and resets the clock, randomizer, feature toggle and service URLs. The binary index's
 * log starts a new generation (wall-clock time, so that it differs from every earlier one), so
 * every copy in memory loads whole again.
 */
export async function cleanDatabaseAndResetTestabilitySettings(ctx: AppContext) {
  await ctx.stores.operations.emptyEveryTable(Date.now());
  ctx.clock.reset();
  ctx.randomizer.set("first");
  ctx.featureToggle.enabled = false;
  ctx.serviceUrls.reset();
  await seedTestProfiles(ctx);
}
