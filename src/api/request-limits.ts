/**
 * Request bodies and query strings are read with limits before anything validates them, so no
 * request can stall or crash the server: a body too big for its route is 413, a body nested too
 * deep, too wide or with too long a string is 400, each found by a linear scan in a few
 * milliseconds, never a 500 and never a failure report. Strings of JSON and multipart bodies
 * follow the one input rule (control characters removed, services/text-input.ts).
 */
import { stripControlCharacters } from "../services/text-input";

/** A request over a limit: its status (400 or 413) and the message answered. */
export class RequestLimitError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 413 | 414 = 400,
  ) {
    super(message);
    this.name = "RequestLimitError";
  }
}

export const REQUEST_LIMITS = {
  /** Deepest nesting of arrays and objects in a JSON body. */
  depth: 64,
  /** Most items of one array or members of one object. */
  entries: 10_000,
  /** Longest string in a body (details hold 200,000 characters). */
  stringLength: 250_000,
  /** Most fields of a multipart or urlencoded body. */
  formFields: 100,
  /** Longest query string, in characters. */
  queryLength: 4096,
  /** Largest body of a route not named in ROUTE_BODY_BYTES. */
  bodyBytes: 64 * 1024,
} as const;

/** Routes whose bodies may be bigger than the default (`:name` stands for one path segment). */
const ROUTE_BODY_BYTES: Record<string, number> = {
  // 200,000 characters of details, in UTF-8 and escaped as JSON.
  "/api/text_content/:note/details": 2 * 1024 * 1024,
  // An MCP tool call may carry a note's details (as above), inside a JSON-RPC message.
  "/api/mcp": 2 * 1024 * 1024,
  // A dictated audio chunk (20 MB) with the other fields of the form.
  "/api/audio/audio-to-text": 21 * 1024 * 1024,
  // An uploaded image (5 MiB) with the other accessory fields.
  "/api/notes/:note": 6 * 1024 * 1024,
  // An Obsidian vault: a zip of up to 100 MiB (services/vaults/read-zip.ts) with the multipart framing.
  "/api/notebooks/:notebook/obsidian": 101 * 1024 * 1024,
  // An Anki deck package (.apkg), within the same limits as a vault.
  "/api/notebooks/anki": 101 * 1024 * 1024,
  // A fine-tuning example keeps a note's description (its 200,000 characters of details and more).
  "/api/fine-tuning/:suggestedQuestion/update-suggested-question-for-fine-tuning": 2 * 1024 * 1024,
  // Up to 100 answers given offline, each with a spelling of up to 1,000 characters.
  "/api/recalls/offline-answers": 512 * 1024,
  // Test data (not in production).
  "/api/testability/inject_notes": 16 * 1024 * 1024,
};

const routePatterns = Object.entries(ROUTE_BODY_BYTES).map(([route, bytes]) => ({
  pattern: new RegExp(`^${route.replace(/:[^/]+/g, "[^/]+")}/?$`),
  bytes,
}));

/** Largest body a request to this path may have, in bytes. */
export function bodyLimitOf(pathname: string): number {
  return routePatterns.find(({ pattern }) => pattern.test(pathname))?.bytes ?? REQUEST_LIMITS.bodyBytes;
}

const tooLarge = (limit: number) => new RequestLimitError(`The request body is larger than ${limit} bytes`, 413);

/**
 * Checks JSON text in one pass without recursion: nesting depth and entries per array or object.
 * Strings are skipped (escapes included); malformed JSON is left for JSON.parse to refuse.
 */
export function scanJson(text: string, limits = REQUEST_LIMITS): void {
  const entries = new Int32Array(limits.depth + 2);
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      depth++;
      if (depth > limits.depth) throw new RequestLimitError(`The request body is nested deeper than ${limits.depth} levels`);
      entries[depth] = 0;
    } else if (c === 93 || c === 125) {
      if (depth > 0) depth--;
    } else if (c === 44 && depth > 0) {
      if (++entries[depth]! >= limits.entries) {
        throw new RequestLimitError(`The request body has a list or object of more than ${limits.entries} entries`);
      }
    }
  }
}

/** The value with control characters removed from its strings and keys, checking string lengths. Depth is already bounded. */
function cleanValue(value: unknown, limits = REQUEST_LIMITS): unknown {
  if (typeof value === "string") {
    if (value.length > limits.stringLength) {
      throw new RequestLimitError(`The request body has a text longer than ${limits.stringLength} characters`);
    }
    return stripControlCharacters(value);
  }
  if (Array.isArray(value)) return value.map((item) => cleanValue(item, limits));
  if (value && typeof value === "object") {
    const clean: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const cleanKey = stripControlCharacters(key);
      // Keys named like Object.prototype's members (__proto__, toString, valueOf...) are dropped:
      // a "toString" that is not a function makes any text conversion of the object throw.
      if (cleanKey in Object.prototype) continue;
      clean[cleanKey] = cleanValue(item, limits);
    }
    return clean;
  }
  return value;
}

/** Parses a JSON body's text within the limits. */
export function parseJsonWithLimits(text: string, limits = REQUEST_LIMITS): unknown {
  scanJson(text, limits);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new RequestLimitError("The request body is not valid JSON");
  }
  return cleanValue(value, limits);
}

/**
 * The body's bytes, read chunk by chunk and refused as soon as they pass the limit: a body sent
 * without a Content-Length (chunked) is never held whole beyond its route's limit, even though
 * the server accepts bodies up to the largest route limit (a 101 MiB vault).
 */
async function readBytes(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  if (!request.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

async function readText(request: Request, limit: number): Promise<string> {
  // A declared length within the limit is the body's length (HTTP framing): read it in one go.
  // (A length that is not a number is read chunk by chunk, within the limit.)
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) <= limit) return request.text();
  return new TextDecoder().decode(await readBytes(request, limit));
}

/**
 * Form fields as Elysia gives them (a repeated name gives an array), within the limits. With
 * `keepText` names and values stay as typed (sign-in passwords), only their length is checked.
 */
function formObject(entries: Iterable<[string, FormDataEntryValue]>, { keepText }: { keepText: boolean }, limits = REQUEST_LIMITS) {
  const body: Record<string, unknown> = {};
  let count = 0;
  for (const [rawKey, rawValue] of entries) {
    if (++count > limits.formFields) throw new RequestLimitError(`The request has more than ${limits.formFields} fields`);
    if (keepText && typeof rawValue === "string" && rawValue.length > limits.stringLength) {
      throw new RequestLimitError(`The request body has a text longer than ${limits.stringLength} characters`);
    }
    const key = keepText ? rawKey : stripControlCharacters(rawKey);
    if (key in Object.prototype) continue;
    const value = typeof rawValue !== "string" || keepText ? rawValue : (cleanValue(rawValue, limits) as string);
    const existing = body[key];
    if (existing === undefined) body[key] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else body[key] = [existing, value];
  }
  return body;
}

/**
 * The body of a request for a route, read within its limits; undefined for content types left to
 * Elysia's own parser (after the size check). Passwords in sign-in forms are kept as typed.
 */
export async function parseBodyWithLimits(request: Request, contentType: string): Promise<unknown> {
  const limit = bodyLimitOf(new URL(request.url).pathname);
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  const type = contentType.toLowerCase();
  if (type === "application/json" || type.endsWith("+json")) return parseJsonWithLimits(await readText(request, limit));
  if (type === "application/x-www-form-urlencoded") {
    return formObject(new URLSearchParams(await readText(request, limit)), { keepText: true });
  }
  if (type === "multipart/form-data") {
    if (!Number.isFinite(declared) || request.headers.get("content-length") === null) {
      // No declared size: read it whole (bounded by the server's largest body) and check.
      const bytes = await readBytes(request, limit);
      request = new Request("http://localhost/", { method: "POST", headers: request.headers, body: bytes });
    }
    let form: FormData;
    try {
      form = await request.formData();
    } catch {
      throw new RequestLimitError("The request body is not valid multipart form data");
    }
    return formObject(form.entries(), { keepText: false });
  }
  if (type.startsWith("text/")) return readText(request, limit);
  return undefined;
}

/** Refuses a query string over the limit (checked before routing). */
export function checkQueryLength(url: string): void {
  const start = url.indexOf("?");
  if (start !== -1 && url.length - start - 1 > REQUEST_LIMITS.queryLength) {
    throw new RequestLimitError(`The query string is longer than ${REQUEST_LIMITS.queryLength} characters`, 414);
  }
}
