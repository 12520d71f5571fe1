import type { AppContext } from "../context";
import { ServiceUnavailableError } from "../services/errors";
import { aiClient } from "./client";
import { AI_REQUEST_TIMEOUT_MS, AI_SERVICE_FAILED, asProviderFailure } from "./structured-output";

/**
 * One images/generations call: the prompt only, base64 answer (no model or
 * size, so the provider's default image model is used). Answers the PNG as base64. Throws
 * ServiceUnavailableError when AI is not configured, the provider fails or answers no image.
 */
export async function generateImageBase64(ctx: AppContext, prompt: string): Promise<string> {
  const client = aiClient(ctx);
  let b64: string | undefined;
  try {
    const result = await client.images.generate({ prompt, response_format: "b64_json" }, { timeout: AI_REQUEST_TIMEOUT_MS, maxRetries: 0 });
    b64 = result?.data?.[0]?.b64_json;
  } catch (error) {
    throw asProviderFailure(error);
  }
  if (!b64) throw new ServiceUnavailableError(AI_SERVICE_FAILED);
  return b64;
}
