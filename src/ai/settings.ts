import type { AppContext } from "../context";

/**
 * Instance-wide settings (the global_settings key/value table, the settings store): the AI models
 * per task. Keys are the camel-case names of the settings, e.g. "embeddingModel".
 */
export function readGlobalSetting(ctx: AppContext, key: string): Promise<string | undefined> {
  return ctx.stores.settings.setting(key);
}

/** Writes these settings in one transaction (a setting not named keeps its value). */
export function writeGlobalSettings(ctx: AppContext, values: Record<string, string>): Promise<void> {
  return ctx.stores.settings.setSettings(values, ctx.clock.now());
}

export function writeGlobalSetting(ctx: AppContext, key: string, value: string): Promise<void> {
  return writeGlobalSettings(ctx, { [key]: value });
}

export const DEFAULT_EMBEDDING_MODEL = "text-embedding-3-small";

/** The model notes and search keys are embedded with (setting "embeddingModel"). */
export async function embeddingModel(ctx: AppContext): Promise<string> {
  return (await readGlobalSetting(ctx, "embeddingModel"))?.trim() || DEFAULT_EMBEDDING_MODEL;
}

/** The `dimensions` an administrator may ask of the provider (text-embedding-3-* shorten their vectors). */
export const MIN_EMBEDDING_DIMENSIONS = 64;
export const MAX_EMBEDDING_DIMENSIONS = 3072;

/** Whole numbers from 64 to 3072. */
export function isValidEmbeddingDimensions(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= MIN_EMBEDDING_DIMENSIONS && value <= MAX_EMBEDDING_DIMENSIONS;
}

/**
 * The `dimensions` requested with every embedding (setting "embeddingDimensions"), or undefined:
 * then none is sent and the model answers its own length (1,536 for text-embedding-3-small). A
 * stored value out of range counts as unset.
 */
export async function embeddingDimensions(ctx: AppContext): Promise<number | undefined> {
  const text = (await readGlobalSetting(ctx, "embeddingDimensions"))?.trim();
  const value = text ? Number(text) : undefined;
  return isValidEmbeddingDimensions(value) ? value : undefined;
}

/** What notes are embedded with: the model, and the dimension asked for when one is set. */
export interface EmbeddingConfig {
  model: string;
  dimensions?: number;
}

export async function embeddingConfig(ctx: AppContext): Promise<EmbeddingConfig> {
  const [model, dimensions] = await Promise.all([embeddingModel(ctx), embeddingDimensions(ctx)]);
  return dimensions === undefined ? { model } : { model, dimensions };
}

/**
 * Names the model and requested dimension in a stored embedding's source hash, so a note is
 * embedded again when either changes: the model alone without a dimension (the hashes stored
 * before the setting existed stay current), "model@dimensions" with one.
 */
export function embeddingVersion(config: EmbeddingConfig): string {
  return config.dimensions === undefined ? config.model : `${config.model}@${config.dimensions}`;
}
