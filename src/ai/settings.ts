import { eq } from "drizzle-orm";
import type { AppContext } from "../context";
import type { DbHandle } from "../db/connection";
import { globalSettings } from "../db/schema";

/**
 * Instance-wide settings (the global_settings key/value table): the AI models per task.
 * Keys are the camel-case names of the settings, e.g. "embeddingModel".
 */
export function readGlobalSetting(ctx: AppContext, key: string): string | undefined {
  return ctx.db.select({ value: globalSettings.value }).from(globalSettings).where(eq(globalSettings.keyName, key)).get()?.value;
}

export function writeGlobalSetting(tx: DbHandle, updatedAt: Date, key: string, value: string) {
  tx.insert(globalSettings)
    .values({ keyName: key, value, updatedAt })
    .onConflictDoUpdate({ target: globalSettings.keyName, set: { value, updatedAt } })
    .run();
}

export const DEFAULT_EMBEDDING_MODEL = "text-embedding-3-small";

/** The model notes and search keys are embedded with (setting "embeddingModel"). */
export function embeddingModel(ctx: AppContext): string {
  return readGlobalSetting(ctx, "embeddingModel")?.trim() || DEFAULT_EMBEDDING_MODEL;
}
