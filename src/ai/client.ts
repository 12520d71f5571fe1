import OpenAI from "openai";
import type { AppContext } from "../context";
import { instanceSlot, instanceValue } from "../instance-state";
import { ServiceUnavailableError } from "../services/errors";

/** The message every AI action answers when no provider is configured (README, docs/decisions.md, decision 15). */
export const AI_NOT_CONFIGURED = "AI is not configured";

/** True when an AI provider is configured (OPENAI_API_KEY is set). */
export function isAiConfigured(ctx: AppContext): boolean {
  return Boolean(ctx.config.openAiApiKey);
}

/** The instance's client, with the base URL it was built for. */
const cachedClient = instanceSlot<{ baseURL?: string; client?: OpenAI }>("AI client", () => ({}));

/**
 * The `openai` client for the configured provider (any OpenAI-compatible server). The base URL is
 * read on every call, because tests repoint it at run time (replace_service_url); the client is
 * rebuilt only when it changed. 60 s timeout, two retries (the SDK's backoff) as the reference.
 * Throws ServiceUnavailableError("AI is not configured") without an API key.
 */
export function aiClient(ctx: AppContext): OpenAI {
  const apiKey = ctx.config.openAiApiKey;
  if (!apiKey) throw new ServiceUnavailableError(AI_NOT_CONFIGURED);
  const baseURL = ctx.serviceUrls.openAi;
  const cached = instanceValue(ctx, cachedClient);
  if (cached.client && cached.baseURL === baseURL) return cached.client;
  const client = new OpenAI({ apiKey, baseURL, timeout: 60_000, maxRetries: 2 });
  Object.assign(cached, { baseURL, client });
  return client;
}
