import { OpenAIError } from "openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { AppContext } from "../context";
import { instanceSlot, instanceValue } from "../instance-state";
import { ServiceUnavailableError } from "../services/errors";
import { aiClient } from "./client";

/** The answer to a user action when the provider fails (HTTP error, timeout, connection refused). */
export const AI_SERVICE_FAILED = "The AI service did not answer. Please try again later.";

/** How long one structured request may take (the reference's 60 s). */
export const AI_REQUEST_TIMEOUT_MS = 60_000;
/** A shorter time limit set for one instance (tests), else the default. */
const requestTimeout = instanceSlot<{ ms?: number }>("AI request timeout", () => ({}));

/**
 * Shortens (or restores, with undefined) the time limit of structured requests for one app
 * instance. Tests that make the provider hang use it so a timeout shows in milliseconds.
 */
export function setAiRequestTimeout(ctx: AppContext, ms: number | undefined) {
  instanceValue(ctx, requestTimeout).ms = ms;
}

/**
 * A provider failure (an OpenAIError: HTTP error, timeout, refused connection; or a body the SDK
 * could not read) as a 503 with AI_SERVICE_FAILED, so that e.g. the provider's 401 never reaches
 * the browser as "signed out". Anything else is returned unchanged.
 */
export function asProviderFailure(error: unknown): unknown {
  if (error instanceof OpenAIError || error instanceof SyntaxError) {
    return Object.assign(new ServiceUnavailableError(AI_SERVICE_FAILED), { cause: error });
  }
  return error;
}

export interface StructuredRequest {
  model: string;
  messages: ChatCompletionMessageParam[];
  /** The json_schema name, e.g. "ask_single_answer_multiple_choice_question". */
  schemaName: string;
  /** A strict JSON schema: every property required, no additional properties. */
  schema: Record<string, unknown>;
}

/**
 * One Chat Completions call with JSON-schema structured output (docs/decisions.md, decision 11). Answers the parsed
 * JSON of the first choice, or undefined when the model refused or answered no parsable JSON.
 * Throws ServiceUnavailableError: "AI is not configured" without a key, AI_SERVICE_FAILED when
 * the provider fails or does not answer in time (no automatic retry: callers fall back instead).
 */
export async function requestStructuredJson(ctx: AppContext, request: StructuredRequest): Promise<unknown> {
  const client = aiClient(ctx);
  let content: string | null | undefined;
  try {
    const completion = await client.chat.completions.create(
      {
        model: request.model,
        messages: request.messages,
        n: 1,
        response_format: { type: "json_schema", json_schema: { name: request.schemaName, strict: true, schema: request.schema } },
      },
      { timeout: instanceValue(ctx, requestTimeout).ms ?? AI_REQUEST_TIMEOUT_MS, maxRetries: 0 },
    );
    // An empty 200 body reaches here as undefined: no answer, like an unparsable one.
    content = (completion as typeof completion | undefined)?.choices?.[0]?.message?.content;
  } catch (error) {
    throw asProviderFailure(error);
  }
  if (typeof content !== "string" || !content.trim()) return undefined;
  try {
    return JSON.parse(content);
  } catch {
    return undefined;
  }
}
