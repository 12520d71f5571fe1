/**
 * A fake OpenAI server that speaks the real wire protocol, so the real `openai` client can be pointed at it:
 *
 *   const fake = await startFakeOpenAI();
 *   const client = new OpenAI({ apiKey: "test", baseURL: fake.url });
 *   fake.chat.respondWithJson({ newTitle: "Photosynthesis" });
 *   ...
 *   await fake.stop();
 *
 * Routes (the `/v1` prefix is optional, so both `http://host:port/v1` and `http://host:port` work as base URL):
 *   POST /v1/chat/completions   non-streaming and `stream: true` (SSE `chat.completion.chunk`s, then `data: [DONE]`)
 *   POST /v1/embeddings         deterministic hashed bag-of-words vectors, `encoding_format` float or base64
 *   GET  /v1/models             a list of model ids (`fake.models`), GET /v1/models/{id} for one
 *   POST /v1/files              multipart upload; the file's text is kept in `fake.files` (e.g. a JSONL to check)
 *   POST /v1/fine_tuning/jobs   a `queued` job on the uploaded file, kept in `fake.fineTuningJobs`
 *   POST /v1/images/generations a 1x1 PNG ({@link FAKE_PNG_BASE64}) as `b64_json` (or a URL); fail it with `fake.on(...)`
 *   POST /v1/audio/transcriptions  multipart; {@link FAKE_SRT} as text for `response_format=srt`, else `{text}`
 *   anything else               404 in OpenAI's error shape, unless a test adds a route with `fake.on(...)`
 *
 * Chat completions are scripted per test. Scripted replies are kept in a FIFO queue; a request takes the first
 * queued reply whose `match` accepts it (by default a reply is used once; `times` changes that).
 * When no scripted reply matches, the `default` reply is used; **out of the box there is no default**, and the fake
 * answers HTTP 500 with `code: "fake_not_scripted"` and a message saying what was asked (the response carries
 * `x-should-retry: false`, so the client fails at once instead of retrying). `fake.chat.setDefault(...)` installs a
 * deterministic default instead.
 *
 * Errors use OpenAI's body shape `{error: {message, type, param, code}}`. Scripted failures are sent with
 * `x-should-retry: false` unless `retryable: true` is given, so one `failWith` makes exactly one client call fail.
 *
 * Every request is recorded in `fake.requests` (method, path, query, headers, parsed body).
 */
import type OpenAI from "openai";
import { jsonResponse, matchesText, type RecordedRequest, recordRequest, sleep } from "./http.ts";

export type { RecordedRequest } from "./http.ts";

export type ChatCompletionRequestBody = OpenAI.Chat.ChatCompletionCreateParams;
export type EmbeddingRequestBody = OpenAI.EmbeddingCreateParams;

export interface FakeOpenAIOptions {
  /** Dimension of the fake embeddings when the request sets no `dimensions`. Default 1536 (text-embedding-3-small). */
  embeddingDimensions?: number;
  /** Model ids listed by GET /v1/models. Default: {@link DEFAULT_FAKE_MODELS}. */
  models?: string[];
  /** When set, requests must carry `Authorization: Bearer <apiKey>`; otherwise any bearer token is accepted. */
  apiKey?: string;
  /** Pause between streamed chunks, to let tests observe a stream in progress. Default 0. */
  streamChunkDelayMs?: number;
}

export const DEFAULT_FAKE_MODELS = [
  "gpt-4o-mini",
  "gpt-4o",
  "gpt-4.1-mini",
  "ft:gpt-4o-mini-2024-07-18:engram::fake0001",
  "text-embedding-3-small",
  "whisper-1",
  "dall-e-3",
];

/** One tool call of a scripted reply. `arguments` is JSON-encoded unless it already is a string. */
export interface ToolCallSpec {
  name: string;
  arguments: unknown;
  /** Default: `call_fake_<n>`. */
  id?: string;
}

/** What the fake answers to one chat completion request. */
export type ChatReply =
  | { kind: "text"; text: string }
  | { kind: "json"; value: unknown }
  | { kind: "toolCalls"; calls: ToolCallSpec[]; text?: string | null }
  | { kind: "refusal"; refusal: string }
  | ({ kind: "error" } & FailureSpec)
  /** A raw HTTP answer, e.g. an empty 200 body or something that is not JSON. */
  | { kind: "raw"; status: number; body: string; contentType: string }
  /** Streams `partialText`, then an SSE `{"error": ...}` event, then closes without `[DONE]`. */
  | { kind: "streamError"; partialText: string; message: string; type?: string };

export interface FailureSpec {
  status: number;
  message: string;
  /** OpenAI error type. Default by status: 4xx `invalid_request_error`, 429 `requests`, 5xx `server_error`. */
  type?: string;
  code?: string | null;
  param?: string | null;
  /** Let the client's automatic retry happen (no `x-should-retry: false` header). Default false. */
  retryable?: boolean;
  /** Send `retry-after-ms` (honoured by the openai client), e.g. 0 to make retries in tests instant. */
  retryAfterMs?: number;
}

/** Which chat requests a scripted reply answers. Every given field must match. */
export interface ChatMatch {
  /** `response_format.json_schema.name` (exact string or regex). */
  schemaName?: string | RegExp;
  /** `model` (exact string or regex). */
  model?: string | RegExp;
  /** Text of the last `user` message (substring or regex). */
  lastUserMessage?: string | RegExp;
  /** Text of any message, whatever its role (substring or regex). */
  anyMessage?: string | RegExp;
  /** The request offers a function tool with this name. */
  toolName?: string;
  /** Only streaming (true) or non-streaming (false) requests. */
  stream?: boolean;
  where?: (body: ChatCompletionRequestBody) => boolean;
}

export interface ScriptOptions {
  match?: ChatMatch;
  /** How many requests this reply answers before it is used up. Default 1; `Infinity` keeps it forever. */
  times?: number;
  /** Wait this long before answering. */
  delayMs?: number;
}

export interface FakeChatCompletions {
  /** Answer with `JSON.stringify(value)` as the message content (what json_schema structured output returns). */
  respondWithJson(value: unknown, options?: ScriptOptions): void;
  respondWithText(text: string, options?: ScriptOptions): void;
  /** Answer with one function tool call (`finish_reason: "tool_calls"`). `args` is JSON-encoded unless a string. */
  respondWithToolCall(name: string, args: unknown, options?: ScriptOptions & { id?: string; text?: string }): void;
  respondWithToolCalls(calls: ToolCallSpec[], options?: ScriptOptions & { text?: string }): void;
  /** Answer with a refusal (`message.refusal`, content null). */
  respondWithRefusal(refusal: string, options?: ScriptOptions): void;
  /** Answer with an HTTP error in OpenAI's error shape. */
  failWith(
    status: number,
    message: string,
    options?: ScriptOptions & Pick<FailureSpec, "type" | "code" | "param" | "retryable" | "retryAfterMs">,
  ): void;
  /** For streaming requests: send `partialText`, then an error event. (Non-streaming requests get a 500.) */
  failMidStream(partialText: string, message: string, options?: ScriptOptions): void;
  /** Answer with this exact body (default status 200, content type application/json). */
  respondWithRaw(body: string, options?: ScriptOptions & { status?: number; contentType?: string }): void;
  /** Queue any reply. */
  respondWith(reply: ChatReply, options?: ScriptOptions): void;
  /** Delay the next chat completion answer (whichever reply it is) by `ms`. Adds up when called twice. */
  delay(ms: number): void;
  /** The reply used when nothing queued matches; `null` (the initial state) answers 500 "not scripted". */
  setDefault(reply: ChatReply | ((body: ChatCompletionRequestBody) => ChatReply) | null): void;
  /** Scripted replies not used up yet (entries with `times: Infinity` count as 1). */
  readonly pending: number;
  /** Bodies of the chat completion requests received so far, in order. */
  readonly requests: ChatCompletionRequestBody[];
}

export interface FakeEmbeddings {
  /** Current default dimension (when the request sets no `dimensions`). Writable. */
  dimensions: number;
  /** Inputs matching `pattern` (substring or regex) get `vector` (returned as is, whatever its length). */
  setVector(pattern: string | RegExp, vector: number[]): void;
  /** The next `times` (default 1) embedding requests fail with this HTTP error. */
  failWith(
    status: number,
    message: string,
    options?: { times?: number } & Pick<FailureSpec, "type" | "code" | "param" | "retryable" | "retryAfterMs">,
  ): void;
  /** The next `times` (default 1) embedding requests get this exact body, e.g. a list with too few items. */
  respondWithRaw(body: string, options?: { times?: number; status?: number; contentType?: string }): void;
  /** Delay the next embedding answer by `ms`. */
  delay(ms: number): void;
  /** Bodies of the embedding requests received so far, in order. */
  readonly requests: EmbeddingRequestBody[];
}

export interface FakeUploadedFile {
  id: string;
  filename: string;
  purpose: string;
  content: string;
}

export type RouteHandler = (request: RecordedRequest) => Response | Promise<Response>;

export interface FakeOpenAI {
  /** Base URL including `/v1`, e.g. `http://127.0.0.1:41234/v1`; pass it as the client's `baseURL`. */
  readonly url: string;
  readonly port: number;
  /** Every request received, in order. */
  readonly requests: RecordedRequest[];
  readonly chat: FakeChatCompletions;
  readonly embeddings: FakeEmbeddings;
  /** Model ids listed by GET /v1/models. Writable. */
  models: string[];
  /** When set, only `Authorization: Bearer <apiKey>` is accepted (401 `invalid_api_key` otherwise). */
  apiKey: string | undefined;
  /** Files uploaded with POST /v1/files, in order, with their content as text. */
  readonly files: FakeUploadedFile[];
  /** Bodies of POST /v1/fine_tuning/jobs, with the id answered. */
  readonly fineTuningJobs: { id: string; training_file: string; model: string }[];
  /** Add or replace a route, e.g. `fake.on("POST", "/images/generations", () => Response.json({...}))`. Path without `/v1`. Custom routes win over built-in ones. */
  on(method: string, path: string, handler: RouteHandler): void;
  /** Forget scripted replies, overrides, custom routes, delays and recorded requests. */
  reset(): void;
  stop(): Promise<void>;
}

/** The image POST /v1/images/generations answers: a valid 1x1 PNG, base64. */
export const FAKE_PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

/** What POST /v1/audio/transcriptions answers (replace it with `fake.on(...)`): two SRT segments. */
export const FAKE_SRT = "1\n00:00:00,000 --> 00:00:02,500\nHello from the fake.\n\n2\n00:00:02,500 --> 00:00:04,000\nSecond segment\n";

// ---------------------------------------------------------------------------------------------------------------
// Deterministic embeddings

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Lower-cased words (letters and digits) of a text, as the fake embedding sees them. */
export function embeddingTokens(text: string): string[] {
  return (
    text
      .normalize("NFKC")
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/**
 * The fake embedding of a text: a hashed bag of words (each word adds 1 to bucket `fnv1a(word) % dimensions`),
 * normalised to unit length and rounded to float32, so the float and base64 encodings give the same numbers.
 * Texts with no words in common are orthogonal (cosine 0, squared L2 distance 2) except for hash collisions;
 * texts sharing words get a positive cosine. A text without any word is embedded as if it were one word.
 */
export function fakeEmbedding(text: string, dimensions = 1536): number[] {
  const vector = new Float64Array(dimensions);
  const tokens = embeddingTokens(text);
  for (const token of tokens.length > 0 ? tokens : [text]) {
    vector[fnv1a(token) % dimensions]! += 1;
  }
  let norm = 0;
  for (const v of vector) norm += v * v;
  norm = Math.sqrt(norm);
  return Array.from(vector, (v) => Math.fround(v / norm));
}

export function cosineSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

function float32Base64(vector: number[]): string {
  const bytes = new Uint8Array(vector.length * 4);
  const view = new DataView(bytes.buffer);
  for (const [i, v] of vector.entries()) view.setFloat32(i * 4, v, true);
  return Buffer.from(bytes).toString("base64");
}

// ---------------------------------------------------------------------------------------------------------------
// Helpers

function defaultErrorType(status: number): string {
  if (status === 401) return "invalid_request_error";
  if (status === 403) return "invalid_request_error";
  if (status === 404) return "invalid_request_error";
  if (status === 429) return "requests";
  if (status >= 500) return "server_error";
  return "invalid_request_error";
}

function openAIError(spec: FailureSpec): Response {
  const headers: Record<string, string> = {};
  if (!spec.retryable) headers["x-should-retry"] = "false";
  if (spec.retryAfterMs !== undefined) headers["retry-after-ms"] = String(spec.retryAfterMs);
  return jsonResponse(
    {
      error: {
        message: spec.message,
        type: spec.type ?? defaultErrorType(spec.status),
        param: spec.param ?? null,
        code: spec.code ?? null,
      },
    },
    spec.status,
    headers,
  );
}

function invalidRequest(message: string, param: string | null = null): Response {
  return openAIError({ status: 400, message, param, code: null });
}

/** Plain text of a message's content (string, or an array of parts whose `text` parts are joined). */
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map((part) =>
        part && typeof part === "object" && typeof (part as { text?: unknown }).text === "string" ? (part as { text: string }).text : "",
      )
      .join("");
  }
  return "";
}

function schemaNameOf(body: ChatCompletionRequestBody): string | undefined {
  const format = body.response_format;
  return format && format.type === "json_schema" ? format.json_schema?.name : undefined;
}

function lastUserText(body: ChatCompletionRequestBody): string | undefined {
  const users = body.messages.filter((m) => m.role === "user");
  const last = users[users.length - 1];
  return last ? contentText(last.content) : undefined;
}

function matchName(pattern: string | RegExp, value: string | undefined): boolean {
  if (value === undefined) return false;
  if (typeof pattern === "string") return pattern === value;
  pattern.lastIndex = 0;
  return pattern.test(value);
}

function chatMatches(match: ChatMatch | undefined, body: ChatCompletionRequestBody): boolean {
  if (!match) return true;
  if (match.schemaName !== undefined && !matchName(match.schemaName, schemaNameOf(body))) return false;
  if (match.model !== undefined && !matchName(match.model, body.model)) return false;
  if (match.stream !== undefined && Boolean(body.stream) !== match.stream) return false;
  if (match.lastUserMessage !== undefined) {
    const text = lastUserText(body);
    if (text === undefined || !matchesText(match.lastUserMessage, text)) return false;
  }
  if (match.anyMessage !== undefined) {
    const pattern = match.anyMessage;
    if (!body.messages.some((m) => "content" in m && matchesText(pattern, contentText(m.content)))) return false;
  }
  if (match.toolName !== undefined) {
    const offered = (body.tools ?? []).some((t) => t.type === "function" && t.function.name === match.toolName);
    if (!offered) return false;
  }
  if (match.where && !match.where(body)) return false;
  return true;
}

/** Rough token count (about 4 characters a token), for the `usage` fields. */
function roughTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

/** Splits text into word-sized pieces whose concatenation is the text. */
function textPieces(text: string): string[] {
  if (text === "") return [];
  return text.split(/(?<=\s)(?=\S)/);
}

function fixedPieces(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}

interface QueuedReply {
  reply: ChatReply;
  match?: ChatMatch;
  remaining: number;
  delayMs: number;
}

interface QueuedOverride {
  response: () => Response;
  remaining: number;
}

// ---------------------------------------------------------------------------------------------------------------
// The server

export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  const requests: RecordedRequest[] = [];
  let chatQueue: QueuedReply[] = [];
  let chatDefault: ChatReply | ((body: ChatCompletionRequestBody) => ChatReply) | null = null;
  let chatDelayMs = 0;
  let embeddingOverrides: QueuedOverride[] = [];
  let embeddingVectors: { pattern: string | RegExp; vector: number[] }[] = [];
  let embeddingDelayMs = 0;
  let customRoutes = new Map<string, RouteHandler>();
  const files: FakeUploadedFile[] = [];
  const fineTuningJobs: { id: string; training_file: string; model: string }[] = [];
  let idCounter = 0;
  const streamChunkDelayMs = options.streamChunkDelayMs ?? 0;
  const nextId = () => ++idCounter;

  const state = {
    models: [...(options.models ?? DEFAULT_FAKE_MODELS)],
    apiKey: options.apiKey,
    embeddingDimensions: options.embeddingDimensions ?? 1536,
  };

  function routeKey(method: string, path: string): string {
    return `${method.toUpperCase()} ${path.startsWith("/") ? path : `/${path}`}`;
  }

  function checkAuth(rec: RecordedRequest): Response | null {
    const header = rec.headers.authorization ?? "";
    const match = /^Bearer\s+(.+)$/i.exec(header);
    if (!match) {
      return openAIError({
        status: 401,
        message:
          "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
        type: "invalid_request_error",
        retryable: true,
      });
    }
    const key = match[1]!.trim();
    if (state.apiKey !== undefined && key !== state.apiKey) {
      const shown = key.length > 8 ? `${key.slice(0, 3)}*****${key.slice(-4)}` : key;
      return openAIError({
        status: 401,
        message: `Incorrect API key provided: ${shown}. You can find your API key at https://platform.openai.com/account/api-keys.`,
        type: "invalid_request_error",
        code: "invalid_api_key",
        retryable: true,
      });
    }
    return null;
  }

  // --- chat completions --------------------------------------------------------------------------------------

  function takeChatReply(body: ChatCompletionRequestBody): { reply: ChatReply | null; delayMs: number } {
    const index = chatQueue.findIndex((q) => chatMatches(q.match, body));
    if (index >= 0) {
      const entry = chatQueue[index]!;
      entry.remaining -= 1;
      if (entry.remaining <= 0) chatQueue.splice(index, 1);
      return { reply: entry.reply, delayMs: entry.delayMs };
    }
    const reply = typeof chatDefault === "function" ? chatDefault(body) : chatDefault;
    return { reply, delayMs: 0 };
  }

  function completionMessage(reply: ChatReply): {
    message: Record<string, unknown>;
    finishReason: string;
    completionText: string;
  } {
    switch (reply.kind) {
      case "text":
        return {
          message: { role: "assistant", content: reply.text, refusal: null, annotations: [] },
          finishReason: "stop",
          completionText: reply.text,
        };
      case "json": {
        const content = JSON.stringify(reply.value);
        return {
          message: { role: "assistant", content, refusal: null, annotations: [] },
          finishReason: "stop",
          completionText: content,
        };
      }
      case "refusal":
        return {
          message: { role: "assistant", content: null, refusal: reply.refusal, annotations: [] },
          finishReason: "stop",
          completionText: reply.refusal,
        };
      case "toolCalls": {
        const toolCalls = resolveToolCalls(reply.calls);
        return {
          message: {
            role: "assistant",
            content: reply.text ?? null,
            refusal: null,
            annotations: [],
            tool_calls: toolCalls.map((c) => ({
              id: c.id,
              type: "function",
              function: { name: c.name, arguments: c.arguments },
            })),
          },
          finishReason: "tool_calls",
          completionText: (reply.text ?? "") + toolCalls.map((c) => c.name + c.arguments).join(""),
        };
      }
      default:
        throw new Error(`not a message reply: ${reply.kind}`);
    }
  }

  function resolveToolCalls(calls: ToolCallSpec[]): { id: string; name: string; arguments: string }[] {
    return calls.map((c) => ({
      id: c.id ?? `call_fake_${nextId()}`,
      name: c.name,
      arguments: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments ?? {}),
    }));
  }

  function usageFor(body: ChatCompletionRequestBody, completionText: string) {
    const promptTokens = body.messages.reduce((sum, m) => sum + roughTokens("content" in m ? contentText(m.content) : ""), 0);
    const completionTokens = roughTokens(completionText);
    return {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: {
        reasoning_tokens: 0,
        audio_tokens: 0,
        accepted_prediction_tokens: 0,
        rejected_prediction_tokens: 0,
      },
    };
  }

  async function handleChat(rec: RecordedRequest, signal: AbortSignal): Promise<Response> {
    const body = rec.body as ChatCompletionRequestBody | undefined;
    if (!body || typeof body !== "object") return invalidRequest("We could not parse the JSON body of your request.");
    if (typeof body.model !== "string" || body.model === "") {
      return invalidRequest("you must provide a model parameter", "model");
    }
    if (!Array.isArray(body.messages) || body.messages.length === 0) {
      return invalidRequest("[] is too short - 'messages'", "messages");
    }

    const { reply, delayMs } = takeChatReply(body);
    const totalDelay = delayMs + chatDelayMs;
    chatDelayMs = 0;
    await sleep(totalDelay, signal);

    if (!reply) {
      const schema = schemaNameOf(body);
      return openAIError({
        status: 500,
        message:
          `Fake OpenAI: no chat completion was scripted for this request (model ${body.model}` +
          `${schema ? `, json_schema ${schema}` : ""}${body.stream ? ", stream" : ""}` +
          `, last user message ${JSON.stringify((lastUserText(body) ?? "").slice(0, 120))}). ` +
          "Script one with fake.chat.respondWith...() or fake.chat.setDefault().",
        type: "server_error",
        code: "fake_not_scripted",
      });
    }
    if (reply.kind === "error") return openAIError(reply);
    if (reply.kind === "raw") {
      return new Response(reply.body, { status: reply.status, headers: { "content-type": reply.contentType } });
    }
    if (reply.kind === "streamError" && !body.stream) {
      return openAIError({ status: 500, message: reply.message, type: reply.type });
    }

    const id = `chatcmpl-fake-${nextId()}`;
    const created = Math.floor(Date.now() / 1000);
    if (body.stream) return streamChat(body, reply, id, created, signal);

    const { message, finishReason, completionText } = completionMessage(reply);
    return jsonResponse({
      id,
      object: "chat.completion",
      created,
      model: body.model,
      choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason }],
      usage: usageFor(body, completionText),
      service_tier: "default",
      system_fingerprint: "fp_fake",
    });
  }

  function streamChat(body: ChatCompletionRequestBody, reply: ChatReply, id: string, created: number, signal: AbortSignal): Response {
    const includeUsage = Boolean(body.stream_options?.include_usage);
    const base = {
      id,
      object: "chat.completion.chunk",
      created,
      model: body.model,
      service_tier: "default",
      system_fingerprint: "fp_fake",
    };
    const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
      ...base,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      ...(includeUsage ? { usage: null } : {}),
    });

    const events: string[] = [];
    const push = (data: unknown) => events.push(JSON.stringify(data));
    let completionText = "";
    let errorEvent: unknown = null;

    switch (reply.kind) {
      case "text":
      case "json": {
        const text = reply.kind === "text" ? reply.text : JSON.stringify(reply.value);
        completionText = text;
        push(chunk({ role: "assistant", content: "", refusal: null }));
        for (const piece of reply.kind === "text" ? textPieces(text) : fixedPieces(text, 16)) {
          push(chunk({ content: piece }));
        }
        push(chunk({}, "stop"));
        break;
      }
      case "refusal": {
        completionText = reply.refusal;
        push(chunk({ role: "assistant", content: null, refusal: "" }));
        for (const piece of textPieces(reply.refusal)) push(chunk({ refusal: piece }));
        push(chunk({}, "stop"));
        break;
      }
      case "toolCalls": {
        const calls = resolveToolCalls(reply.calls);
        completionText = (reply.text ?? "") + calls.map((c) => c.name + c.arguments).join("");
        if (reply.text) {
          push(chunk({ role: "assistant", content: "", refusal: null }));
          for (const piece of textPieces(reply.text)) push(chunk({ content: piece }));
        }
        calls.forEach((call, index) => {
          const first = {
            index,
            id: call.id,
            type: "function",
            function: { name: call.name, arguments: "" },
          };
          push(
            chunk(
              index === 0 && !reply.text
                ? { role: "assistant", content: null, tool_calls: [first], refusal: null }
                : { tool_calls: [first] },
            ),
          );
          for (const piece of fixedPieces(call.arguments, 12)) {
            push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
          }
        });
        push(chunk({}, "tool_calls"));
        break;
      }
      case "streamError": {
        push(chunk({ role: "assistant", content: "", refusal: null }));
        for (const piece of textPieces(reply.partialText)) push(chunk({ content: piece }));
        errorEvent = { error: { message: reply.message, type: reply.type ?? "server_error", param: null, code: null } };
        break;
      }
      default:
        throw new Error(`cannot stream reply kind ${reply.kind}`);
    }
    if (errorEvent === null && includeUsage) {
      push({ ...base, choices: [], usage: usageFor(body, completionText) });
    }

    const encoder = new TextEncoder();
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        try {
          for (const data of events) {
            if (signal.aborted) return;
            controller.enqueue(encoder.encode(`data: ${data}\n\n`));
            await sleep(streamChunkDelayMs, signal);
          }
          if (errorEvent !== null) {
            controller.enqueue(encoder.encode(`data: ${JSON.stringify(errorEvent)}\n\n`));
          } else {
            controller.enqueue(encoder.encode("data: [DONE]\n\n"));
          }
          controller.close();
        } catch {
          // the client went away; nothing to do
        }
      },
    });
    return new Response(stream, {
      status: 200,
      headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" },
    });
  }

  // --- embeddings --------------------------------------------------------------------------------------------

  async function handleEmbeddings(rec: RecordedRequest, signal: AbortSignal): Promise<Response> {
    const delay = embeddingDelayMs;
    embeddingDelayMs = 0;
    await sleep(delay, signal);

    const override = embeddingOverrides[0];
    if (override) {
      override.remaining -= 1;
      if (override.remaining <= 0) embeddingOverrides.shift();
      return override.response();
    }

    const body = rec.body as EmbeddingRequestBody | undefined;
    if (!body || typeof body !== "object") return invalidRequest("We could not parse the JSON body of your request.");
    if (typeof body.model !== "string" || body.model === "") {
      return invalidRequest("you must provide a model parameter", "model");
    }
    const rawInput: unknown = body.input;
    let inputs: string[];
    if (typeof rawInput === "string") {
      inputs = [rawInput];
    } else if (Array.isArray(rawInput) && rawInput.length > 0) {
      if (rawInput.every((x) => typeof x === "string")) inputs = rawInput as string[];
      else if (rawInput.every((x) => typeof x === "number")) inputs = [rawInput.map((t) => `token${t}`).join(" ")];
      else if (rawInput.every((x) => Array.isArray(x))) {
        inputs = (rawInput as unknown[][]).map((tokens) => tokens.map((t) => `token${t}`).join(" "));
      } else
        return invalidRequest(
          "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.",
          "input",
        );
    } else {
      return invalidRequest(
        "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.",
        "input",
      );
    }
    if (inputs.length > 2048) return invalidRequest("'$.input' is invalid: at most 2048 inputs.", "input");
    if (inputs.some((s) => s === "")) {
      return invalidRequest(
        "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.",
        "input",
      );
    }
    const dimensions = body.dimensions ?? state.embeddingDimensions;
    if (!Number.isInteger(dimensions) || dimensions < 1) {
      return invalidRequest("Invalid value for 'dimensions': must be a positive integer.", "dimensions");
    }
    const format = body.encoding_format ?? "float";
    if (format !== "float" && format !== "base64") {
      return invalidRequest(
        `Invalid value for 'encoding_format': ${String(format)}. Supported values are: 'float' and 'base64'.`,
        "encoding_format",
      );
    }

    let tokenCount = 0;
    const data = inputs.map((text, index) => {
      tokenCount += roughTokens(text);
      const fixed = embeddingVectors.find((v) => matchesText(v.pattern, text));
      const vector = fixed ? fixed.vector.map((x) => Math.fround(x)) : fakeEmbedding(text, dimensions);
      return {
        object: "embedding",
        index,
        embedding: format === "base64" ? float32Base64(vector) : vector,
      };
    });
    return jsonResponse({
      object: "list",
      data,
      model: body.model,
      usage: { prompt_tokens: tokenCount, total_tokens: tokenCount },
    });
  }

  // --- models -------------------------------------------------------------------------------------------------

  const modelObject = (id: string) => ({
    id,
    object: "model",
    created: 1_700_000_000,
    owned_by: id.startsWith("ft:") ? "user-fake" : "system",
  });

  // --- files and fine-tuning jobs -----------------------------------------------------------------------------

  async function handleFileUpload(rec: RecordedRequest): Promise<Response> {
    const contentType = rec.headers["content-type"] ?? "";
    if (!contentType.startsWith("multipart/form-data") || typeof rec.body !== "string") {
      return openAIError({ status: 400, message: "Expected a multipart/form-data upload", type: "invalid_request_error" });
    }
    const form = await new Response(rec.body, { headers: { "content-type": contentType } }).formData();
    const file = form.get("file");
    const purpose = String(form.get("purpose") ?? "");
    if (!(file instanceof Blob) || !purpose) {
      return openAIError({ status: 400, message: "'file' and 'purpose' are required", type: "invalid_request_error" });
    }
    const content = await file.text();
    const uploaded = { id: `file-fake${nextId()}`, filename: (file as File).name ?? "upload", purpose, content };
    files.push(uploaded);
    return jsonResponse({
      id: uploaded.id,
      object: "file",
      bytes: Buffer.byteLength(content),
      created_at: Math.floor(Date.now() / 1000),
      filename: uploaded.filename,
      purpose,
      status: "processed",
    });
  }

  function handleFineTuningJob(rec: RecordedRequest): Response {
    const body = (rec.body ?? {}) as { training_file?: unknown; model?: unknown };
    if (typeof body.training_file !== "string" || typeof body.model !== "string") {
      return openAIError({ status: 400, message: "'training_file' and 'model' are required", type: "invalid_request_error" });
    }
    if (!files.some((f) => f.id === body.training_file)) {
      return openAIError({
        status: 400,
        message: `invalid training_file: ${body.training_file}`,
        type: "invalid_request_error",
        param: "training_file",
      });
    }
    const job = { id: `ftjob-fake${nextId()}`, training_file: body.training_file, model: body.model };
    fineTuningJobs.push(job);
    return jsonResponse({
      object: "fine_tuning.job",
      ...job,
      created_at: Math.floor(Date.now() / 1000),
      status: "queued",
      fine_tuned_model: null,
      finished_at: null,
      error: null,
      hyperparameters: {},
      organization_id: "org-fake",
      result_files: [],
      seed: 0,
      trained_tokens: null,
      training_file: body.training_file,
      validation_file: null,
    });
  }

  // --- images -----------------------------------------------------------------------------------------------

  function handleImageGeneration(rec: RecordedRequest): Response {
    const body = (rec.body ?? {}) as { prompt?: unknown; response_format?: unknown; n?: unknown };
    if (typeof body.prompt !== "string" || !body.prompt) {
      return openAIError({ status: 400, message: "'prompt' is required", type: "invalid_request_error", param: "prompt" });
    }
    const count = typeof body.n === "number" ? body.n : 1;
    const image = body.response_format === "b64_json" ? { b64_json: FAKE_PNG_BASE64 } : { url: `data:image/png;base64,${FAKE_PNG_BASE64}` };
    return jsonResponse({
      created: Math.floor(Date.now() / 1000),
      data: Array.from({ length: count }, () => ({ ...image, revised_prompt: body.prompt })),
    });
  }

  async function handleTranscription(rec: RecordedRequest): Promise<Response> {
    const contentType = rec.headers["content-type"] ?? "";
    if (!contentType.startsWith("multipart/form-data") || typeof rec.body !== "string") {
      return openAIError({ status: 400, message: "Expected a multipart/form-data upload", type: "invalid_request_error" });
    }
    const form = await new Response(rec.body, { headers: { "content-type": contentType } }).formData();
    if (!(form.get("file") instanceof Blob) || !form.get("model")) {
      return openAIError({ status: 400, message: "'file' and 'model' are required", type: "invalid_request_error" });
    }
    if (form.get("response_format") === "srt") return new Response(FAKE_SRT, { headers: { "content-type": "text/plain; charset=utf-8" } });
    return jsonResponse({ text: "Hello from the fake. Second segment" });
  }

  // --- dispatch -----------------------------------------------------------------------------------------------

  async function handle(req: Request): Promise<Response> {
    const rec = await recordRequest(req);
    requests.push(rec);
    const path = rec.path.replace(/^\/v1(?=\/|$)/, "") || "/";

    const custom = customRoutes.get(routeKey(rec.method, path));
    if (custom) return custom(rec);

    const authError = checkAuth(rec);
    if (authError) return authError;

    if (rec.method === "POST" && path === "/chat/completions") return handleChat(rec, req.signal);
    if (rec.method === "POST" && path === "/embeddings") return handleEmbeddings(rec, req.signal);
    if (rec.method === "POST" && path === "/files") return handleFileUpload(rec);
    if (rec.method === "POST" && path === "/fine_tuning/jobs") return handleFineTuningJob(rec);
    if (rec.method === "POST" && path === "/images/generations") return handleImageGeneration(rec);
    if (rec.method === "POST" && path === "/audio/transcriptions") return handleTranscription(rec);
    if (rec.method === "GET" && path === "/models") {
      return jsonResponse({ object: "list", data: state.models.map(modelObject) });
    }
    const modelMatch = /^\/models\/(.+)$/.exec(path);
    if (rec.method === "GET" && modelMatch) {
      const id = decodeURIComponent(modelMatch[1]!);
      if (state.models.includes(id)) return jsonResponse(modelObject(id));
      return openAIError({
        status: 404,
        message: `The model '${id}' does not exist`,
        type: "invalid_request_error",
        param: "model",
        code: "model_not_found",
      });
    }
    return openAIError({
      status: 404,
      message: `Invalid URL (${rec.method} ${rec.path})`,
      type: "invalid_request_error",
      code: null,
    });
  }

  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    // 0 = never close an idle connection, so delays longer than Bun's default 10 s work (timeout tests).
    idleTimeout: 0,
    fetch: async (req) => {
      try {
        return await handle(req);
      } catch (error) {
        return openAIError({
          status: 500,
          message: `Fake OpenAI crashed: ${error instanceof Error ? error.message : String(error)}`,
          type: "server_error",
        });
      }
    },
  });
  const port = server.port!;

  function enqueue(reply: ChatReply, opts: ScriptOptions = {}): void {
    chatQueue.push({ reply, match: opts.match, remaining: opts.times ?? 1, delayMs: opts.delayMs ?? 0 });
  }

  const chat: FakeChatCompletions = {
    respondWithJson: (value, opts) => enqueue({ kind: "json", value }, opts),
    respondWithText: (text, opts) => enqueue({ kind: "text", text }, opts),
    respondWithToolCall: (name, args, opts) =>
      enqueue({ kind: "toolCalls", calls: [{ name, arguments: args, id: opts?.id }], text: opts?.text }, opts),
    respondWithToolCalls: (calls, opts) => enqueue({ kind: "toolCalls", calls, text: opts?.text }, opts),
    respondWithRefusal: (refusal, opts) => enqueue({ kind: "refusal", refusal }, opts),
    failWith: (status, message, opts) =>
      enqueue(
        {
          kind: "error",
          status,
          message,
          type: opts?.type,
          code: opts?.code,
          param: opts?.param,
          retryable: opts?.retryable,
          retryAfterMs: opts?.retryAfterMs,
        },
        opts,
      ),
    failMidStream: (partialText, message, opts) => enqueue({ kind: "streamError", partialText, message }, opts),
    respondWithRaw: (body, opts) =>
      enqueue({ kind: "raw", body, status: opts?.status ?? 200, contentType: opts?.contentType ?? "application/json" }, opts),
    respondWith: (reply, opts) => enqueue(reply, opts),
    delay: (ms) => {
      chatDelayMs += ms;
    },
    setDefault: (reply) => {
      chatDefault = reply;
    },
    get pending() {
      return chatQueue.length;
    },
    get requests() {
      return requests
        .filter((r) => r.method === "POST" && /^(\/v1)?\/chat\/completions$/.test(r.path))
        .map((r) => r.body as ChatCompletionRequestBody);
    },
  };

  const embeddings: FakeEmbeddings = {
    get dimensions() {
      return state.embeddingDimensions;
    },
    set dimensions(value: number) {
      state.embeddingDimensions = value;
    },
    setVector: (pattern, vector) => {
      embeddingVectors.push({ pattern, vector });
    },
    failWith: (status, message, opts) => {
      const spec: FailureSpec = {
        status,
        message,
        type: opts?.type,
        code: opts?.code,
        param: opts?.param,
        retryable: opts?.retryable,
        retryAfterMs: opts?.retryAfterMs,
      };
      embeddingOverrides.push({ response: () => openAIError(spec), remaining: opts?.times ?? 1 });
    },
    respondWithRaw: (body, opts) => {
      embeddingOverrides.push({
        response: () =>
          new Response(body, { status: opts?.status ?? 200, headers: { "content-type": opts?.contentType ?? "application/json" } }),
        remaining: opts?.times ?? 1,
      });
    },
    delay: (ms) => {
      embeddingDelayMs += ms;
    },
    get requests() {
      return requests.filter((r) => r.method === "POST" && /^(\/v1)?\/embeddings$/.test(r.path)).map((r) => r.body as EmbeddingRequestBody);
    },
  };

  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    chat,
    embeddings,
    files,
    fineTuningJobs,
    get models() {
      return state.models;
    },
    set models(value: string[]) {
      state.models = value;
    },
    get apiKey() {
      return state.apiKey;
    },
    set apiKey(value: string | undefined) {
      state.apiKey = value;
    },
    on(method, path, handler) {
      customRoutes.set(routeKey(method, path.replace(/^\/v1(?=\/|$)/, "")), handler);
    },
    reset() {
      requests.length = 0;
      chatQueue = [];
      chatDefault = null;
      chatDelayMs = 0;
      embeddingOverrides = [];
      embeddingVectors = [];
      embeddingDelayMs = 0;
      customRoutes = new Map();
      files.length = 0;
      fineTuningJobs.length = 0;
    },
    async stop() {
      await server.stop(true);
    },
  };
}
