import type { Embedding } from "openai/resources/embeddings";
import type { AppContext } from "../context";
import { ServiceUnavailableError } from "../services/errors";
import { aiClient } from "./client";
import { type EmbeddingConfig, embeddingConfig } from "./settings";
import { asProviderFailure } from "./structured-output";

/** Longest text sent to be embedded: about 4,000 tokens at 3.75 bytes a token (the reference's limit). */
export const MAX_EMBEDDING_BYTES = 15_000;

/** Cuts a text to at most `maxBytes` UTF-8 bytes, at a character boundary. */
export function truncateUtf8(text: string, maxBytes = MAX_EMBEDDING_BYTES): string {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length <= maxBytes) return text;
  // Step back over UTF-8 continuation bytes (10xxxxxx) so no character is cut in half.
  let end = maxBytes;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return new TextDecoder().decode(bytes.subarray(0, end));
}

export interface Embeddings {
  model: string;
  /** The dimension asked of the provider, when one is set (the vectors have it if the provider honours it). */
  dimensions?: number;
  /** One unit-free float32 vector per input text, in the order of the texts. */
  vectors: Float32Array[];
}

/**
 * Embeds texts with the configured embedding model (and `dimensions`, when set) through the
 * OpenAI-compatible embeddings API (one request; callers batch). Throws ServiceUnavailableError: "AI is not configured"
 * without a provider, AI_SERVICE_FAILED when the provider fails (never its own 401, which the
 * browser would read as "signed out"), or a message when it answers a different number of
 * vectors than texts, or vectors of different lengths.
 */
export async function embedTexts(ctx: AppContext, texts: string[], given?: EmbeddingConfig): Promise<Embeddings> {
  const config = given ?? (await embeddingConfig(ctx));
  const { model, dimensions } = config;
  if (texts.length === 0) return { ...config, vectors: [] };
  const client = aiClient(ctx);
  let data: Embedding[];
  try {
    // `dimensions` only when an administrator set one: providers without it refuse the field.
    const response = await client.embeddings.create({
      model,
      input: texts.map((text) => truncateUtf8(text)),
      ...(dimensions === undefined ? {} : { dimensions }),
    });
    data = [...((response as typeof response | undefined)?.data ?? [])].sort((a, b) => a.index - b.index);
  } catch (error) {
    throw asProviderFailure(error);
  }
  if (data.length !== texts.length) {
    throw new ServiceUnavailableError(`The embedding provider answered ${data.length} vectors for ${texts.length} texts`);
  }
  const vectors = data.map((item) => Float32Array.from(item.embedding));
  const length = vectors[0]!.length;
  if (length === 0 || vectors.some((v) => v.length !== length)) {
    throw new ServiceUnavailableError("The embedding provider answered vectors of different or zero lengths");
  }
  return { ...config, vectors };
}
