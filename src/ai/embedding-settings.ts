import type { AppContext } from "../context";
import { ValidationError } from "../services/errors";
import { authorizeAdmin } from "../services/policies";
import { embeddingSettingsChanged } from "../services/search/embed-job";
import type { CurrentUser } from "../services/users";
import { ADMIN_ONLY_MESSAGE, MAX_MODEL_NAME_LENGTH, MODEL_NAME_MESSAGE } from "./model-settings";
import {
  embeddingConfig,
  embeddingVersion,
  isValidEmbeddingDimensions,
  MAX_EMBEDDING_DIMENSIONS,
  MIN_EMBEDDING_DIMENSIONS,
  writeGlobalSettings,
} from "./settings";

/** GET/POST /settings/embedding (an Engram addition, in Manage Models): what notes are embedded with. */
export interface EmbeddingSettings {
  embeddingModel: string;
  /** The `dimensions` asked of the provider; null: none is sent (the model's own length). */
  embeddingDimensions: number | null;
}

export const EMBEDDING_DIMENSIONS_MESSAGE = `must be a whole number from ${MIN_EMBEDDING_DIMENSIONS} to ${MAX_EMBEDDING_DIMENSIONS}, or empty for the model's own`;

export async function currentEmbeddingSettings(ctx: AppContext): Promise<EmbeddingSettings> {
  const { model, dimensions } = await embeddingConfig(ctx);
  return { embeddingModel: model, embeddingDimensions: dimensions ?? null };
}

/**
 * POST /settings/embedding (admin only): sets the embedding model and/or the requested dimension
 * (null clears it: no `dimensions` is sent). A missing field keeps its value. When either changes,
 * every note is embedded again by a background job; semantic search keeps answering meanwhile,
 * from the notes already embedded the new way.
 */
export async function updateEmbeddingSettings(
  ctx: AppContext,
  current: CurrentUser,
  input: { embeddingModel?: unknown; embeddingDimensions?: unknown },
): Promise<EmbeddingSettings> {
  authorizeAdmin(current, ADMIN_ONLY_MESSAGE);
  const errors: Record<string, string> = {};
  const values: Record<string, string> = {};
  if (input.embeddingModel !== undefined && input.embeddingModel !== null) {
    const model = typeof input.embeddingModel === "string" ? input.embeddingModel.trim() : "";
    if (!model || model.length > MAX_MODEL_NAME_LENGTH) errors.embeddingModel = MODEL_NAME_MESSAGE;
    else values.embeddingModel = model;
  }
  if (input.embeddingDimensions === null) values.embeddingDimensions = "";
  else if (input.embeddingDimensions !== undefined) {
    if (isValidEmbeddingDimensions(input.embeddingDimensions)) values.embeddingDimensions = String(input.embeddingDimensions);
    else errors.embeddingDimensions = EMBEDDING_DIMENSIONS_MESSAGE;
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  const before = embeddingVersion(await embeddingConfig(ctx));
  await writeGlobalSettings(ctx, values);
  if (embeddingVersion(await embeddingConfig(ctx)) !== before) await embeddingSettingsChanged(ctx);
  return currentEmbeddingSettings(ctx);
}
