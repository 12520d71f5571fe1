import type { AppContext } from "../../context";
import { restartBinaryIndexState } from "../search/binary-index";
import { seedTestProfiles } from "./test-identities";

/**
 * Empties every table (the sign-in limits and virtual tables included, their shadow tables left to SQLite), recreates
 * the test profiles and resets the clock, randomizer, feature toggle and service URLs.
 */
export function cleanDatabaseAndResetTestabilitySettings(ctx: AppContext) {
  const tables = ctx.sqlite
    .query<{ schema: string; name: string; type: string }, []>("PRAGMA table_list")
    .all()
    .filter((t) => t.schema === "main" && (t.type === "table" || t.type === "virtual") && !/^(sqlite_|__drizzle)/.test(t.name))
    // External-content full-text indexes follow their tables through triggers; the cache versions
    // only ever grow (the emptied tables' triggers raise them), so no kept answer outlives them.
    .filter((t) => !t.name.endsWith("_fts") && t.name !== "cache_versions")
    // Notebooks last: a trigger keeps a notebook while subscriptions, certificates... refer to it.
    .sort((a, b) => Number(a.name === "notebooks") - Number(b.name === "notebooks"));
  ctx.sqlite.run("PRAGMA foreign_keys = OFF");
  try {
    ctx.sqlite.transaction(() => {
      for (const table of tables) ctx.sqlite.run(`DELETE FROM "${table.name}"`);
      ctx.sqlite.run("DELETE FROM sqlite_sequence");
      restartBinaryIndexState(ctx);
    })();
  } finally {
    ctx.sqlite.run("PRAGMA foreign_keys = ON");
  }
  ctx.clock.reset();
  ctx.randomizer.set("first");
  ctx.featureToggle.enabled = false;
  ctx.serviceUrls.reset();
  seedTestProfiles(ctx);
}
