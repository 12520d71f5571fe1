/** Instance-wide settings: the global_settings key/value table (the AI models per task, the admin's defaults). */
import { eq, sql } from "drizzle-orm";
import { defineStore, read, type StoreOf, write } from "../define";
import { one, prepared, run, type Session, type Step } from "../session";

/** A setting's value, or undefined when it was never set. */
export function* setting(s: Session, key: string): Step<string | undefined> {
  const { globalSettings: g } = s.t;
  const query = prepared(s, "global-setting", () =>
    s.db
      .select({ value: g.value })
      .from(g)
      .where(eq(g.keyName, sql.placeholder("key"))),
  );
  return (yield* one(s, query, { key }))?.value;
}

/** Writes these settings together (a setting not named keeps its value). */
export function* setSettings(s: Session, values: Record<string, string>, now: Date): Step<void> {
  const { globalSettings: g } = s.t;
  for (const [keyName, value] of Object.entries(values)) {
    yield* run(
      s,
      s.db
        .insert(g)
        .values({ keyName, value, updatedAt: now })
        .onConflictDoUpdate({ target: g.keyName, set: { value, updatedAt: now } }),
    );
  }
}

export const settingsStore = defineStore({
  setting: read(setting),
  setSettings: write(setSettings),
});
export type SettingsStore = StoreOf<typeof settingsStore>;
