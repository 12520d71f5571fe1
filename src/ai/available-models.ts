import type { AppContext } from "../context";
import { authorizeAdmin } from "../services/policies";
import type { CurrentUser } from "../services/users";
import { aiClient } from "./client";
import { ADMIN_ONLY_MESSAGE } from "./model-settings";
import { AI_REQUEST_TIMEOUT_MS, asProviderFailure } from "./structured-output";

/** Chat models worth offering: the provider's GPT models and fine-tuned ones (ids "gpt…" or "ft:…"). */
export const isChatModelId = (id: string) => id.startsWith("gpt") || id.startsWith("ft:");

/**
 * GET /ai/available-gpt-models (admin only, for Manage Models): the provider's model ids that
 * are chat models, in the provider's order. 503 "AI is not configured" without a key.
 */
export async function availableGptModels(ctx: AppContext, current: CurrentUser): Promise<string[]> {
  authorizeAdmin(current, ADMIN_ONLY_MESSAGE);
  const client = aiClient(ctx);
  const ids: string[] = [];
  try {
    for await (const model of client.models.list({ timeout: AI_REQUEST_TIMEOUT_MS, maxRetries: 0 })) ids.push(model.id);
  } catch (error) {
    throw asProviderFailure(error);
  }
  return ids.filter(isChatModelId);
}
