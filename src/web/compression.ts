/**
 * Response compression: every text answer (HTML, JSON, JS, CSS, SVG, plain text) goes
 * out Brotli-, gzip- or (dynamic answers) Zstandard-compressed when the browser asks for it in
 * Accept-Encoding. Hashed assets are
 * precompressed at build (scripts/build-client.ts, served by web/assets.ts); everything else is
 * compressed here as it leaves; JSON answers of a few kilobytes go out as they are (see
 * MIN_COMPRESS_JSON_BYTES). Server-sent events (text/event-stream, e.g. the MCP endpoint) are
 * passed through untouched: buffering them would hold every event back until the stream ends.
 */

import { brotliCompressSync, constants } from "node:zlib";
import { Elysia } from "elysia";

export type Encoding = "br" | "gzip" | "zstd";

/** Every encoding Engram can answer in (static assets only have Brotli and gzip twins). */
const ANY_ENCODING: readonly Encoding[] = ["br", "gzip", "zstd"];

/** Smaller bodies gain nothing: the encoding's framing would eat most of the saving. */
export const MIN_COMPRESS_BYTES = 256;

/** Brotli quality 4 compresses a 100 KB JSON to about a third of gzip's size in ~1 ms; 11 takes 250 ms. */
const DYNAMIC_BROTLI_QUALITY = 4;
const DYNAMIC_GZIP_LEVEL = 6;
const DYNAMIC_ZSTD_LEVEL = 3;

/**
 * The encoding to use among those the client accepts (honouring q=0), by our order of preference:
 * Brotli over gzip unless told otherwise; undefined for identity.
 */
export function negotiateEncoding(
  acceptEncoding: string | null | undefined,
  preference: readonly Encoding[] = ["br", "gzip"],
): Encoding | undefined {
  if (!acceptEncoding) return undefined;
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(",")) {
    const [name, ...params] = part.trim().split(";");
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const weight = q ? Number(q.slice(2)) : 1;
    accepted.set(name.trim(), Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (name: string) => accepted.get(name) ?? (accepted.has("*") ? accepted.get("*")! : 0);
  return preference.find((encoding) => weightOf(encoding) > 0);
}

/**
 * Dynamic answers smaller than this go out Zstandard- or gzip-compressed when the client takes
 * them: on a page or a JSON answer of a few kilobytes, zstd (level 3) is as small as gzip (level 6)
 * in half the time, and gzip is within 3 % of Brotli (quality 4) in size in less than half the
 * time; Brotli's larger window pays off on larger bodies.
 */
export const DYNAMIC_BROTLI_MIN_BYTES = 64 * 1024;

/**
 * JSON answers smaller than this go out as they are: an API answer of a few kilobytes (a search's
 * 30 hits are about 5 KB, one per key stroke) fits in a connection's first round trip (ten TCP
 * segments) either way, and compressing and decompressing it costs more than sending it. Pages
 * and larger answers are compressed.
 */
export const MIN_COMPRESS_JSON_BYTES = 8 * 1024;

const isJsonType = (contentType: string | null) => /^application\/([\w.-]+\+)?json\s*(;|$)/i.test(contentType ?? "");

/** The smallest body of this type worth compressing. */
export const minCompressBytes = (contentType: string | null) => (isJsonType(contentType) ? MIN_COMPRESS_JSON_BYTES : MIN_COMPRESS_BYTES);

/** The encoding of a dynamic answer of this size, or undefined to send it as it is (smaller than `minBytes`). */
export function dynamicEncoding(
  acceptEncoding: string | null | undefined,
  byteLength: number,
  minBytes = MIN_COMPRESS_BYTES,
): Encoding | undefined {
  if (byteLength < minBytes) return undefined;
  return negotiateEncoding(acceptEncoding, byteLength < DYNAMIC_BROTLI_MIN_BYTES ? ["zstd", "gzip", "br"] : ["br", "zstd", "gzip"]);
}

/** Text worth compressing; never event streams (they must flush each event as it comes). */
export function isCompressibleType(contentType: string | null): boolean {
  if (!contentType) return false;
  const type = contentType.split(";")[0]!.trim().toLowerCase();
  if (type === "text/event-stream") return false;
  return (
    type.startsWith("text/") ||
    type === "application/json" ||
    type.endsWith("+json") ||
    type === "application/javascript" ||
    type === "application/xml" ||
    type.endsWith("+xml") // image/svg+xml, application/atom+xml
  );
}

/** Bytes (or a text, as UTF-8) compressed in the encoding. */
export function compressBytes(
  bytes: Uint8Array<ArrayBuffer> | string,
  encoding: Encoding,
  quality: "dynamic" | "static" = "dynamic",
): Uint8Array<ArrayBuffer> {
  if (encoding === "gzip") return Bun.gzipSync(bytes, { level: quality === "static" ? 9 : DYNAMIC_GZIP_LEVEL });
  // A Buffer over an ArrayBuffer of its own (never shared).
  if (encoding === "zstd")
    return Bun.zstdCompressSync(bytes, { level: quality === "static" ? 19 : DYNAMIC_ZSTD_LEVEL }) as Uint8Array<ArrayBuffer>;
  return new Uint8Array(
    brotliCompressSync(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: quality === "static" ? constants.BROTLI_MAX_QUALITY : DYNAMIC_BROTLI_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: typeof bytes === "string" ? Buffer.byteLength(bytes, "utf8") : bytes.byteLength,
      },
    }),
  );
}

/** Adds Accept-Encoding to Vary without losing what is there. */
export function varyOnAcceptEncoding(headers: Headers) {
  const vary = headers.get("vary");
  if (!vary) headers.set("vary", "accept-encoding");
  else if (!/(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(vary)) headers.set("vary", `${vary}, accept-encoding`);
}

/**
 * The response compressed for this request, or the same response when it should not be: the
 * client accepts no encoding we have, it is HEAD, there is no body (204, 304, redirects), it is
 * already encoded, it is not text, or it is an event stream. Small bodies are answered uncompressed.
 */
export async function compressResponse(request: Request, response: Response): Promise<Response> {
  if (request.method === "HEAD" || !response.body || response.status === 204 || response.status === 304) return response;
  const headers = response.headers;
  if (headers.has("content-encoding") || !isCompressibleType(headers.get("content-type"))) return response;
  if (/(^|,)\s*no-transform\s*(,|$)/i.test(headers.get("cache-control") ?? "")) return response;
  const out = new Headers(headers);
  varyOnAcceptEncoding(out);
  out.delete("content-length");
  const init = { status: response.status, statusText: response.statusText, headers: out };
  const acceptEncoding = request.headers.get("accept-encoding");
  if (!negotiateEncoding(acceptEncoding, ANY_ENCODING)) return new Response(response.body, init);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const encoding = dynamicEncoding(acceptEncoding, bytes.byteLength, minCompressBytes(headers.get("content-type")));
  if (!encoding) return new Response(bytes, init);
  out.set("content-encoding", encoding);
  return new Response(compressBytes(bytes, encoding), init);
}

/**
 * A route's plain value (JSON or text) as one Response, compressed when it is worth it: built in one
 * go from the serialised text, without a first Response to read back (a search answer is a few
 * kilobytes; reading a Response back and building a second one cost more than compressing it).
 */
export function textResponse(request: Request, text: string, status: number, contentType: string): Response {
  const headers: Record<string, string> = { "content-type": contentType, vary: "accept-encoding" };
  const plain = request.method === "HEAD" || status === 204 || status === 304 || !isCompressibleType(contentType);
  // Compressed straight from the text: no UTF-8 copy of it first.
  const encoding = plain
    ? undefined
    : dynamicEncoding(request.headers.get("accept-encoding"), Buffer.byteLength(text, "utf8"), minCompressBytes(contentType));
  if (!encoding) return new Response(text, { status, headers });
  headers["content-encoding"] = encoding;
  return new Response(compressBytes(text, encoding), { status, headers });
}

/**
 * The Elysia side: a global mapResponse that compresses what a route or error handler answered.
 * Plain values (objects, strings) are mapped the way Elysia would map them first; Elysia then adds
 * the headers and cookies in `set` to the returned Response, so they are not repeated here.
 */
export function compression() {
  return new Elysia({ name: "engram-compression" }).mapResponse({ as: "global" }, ({ request, responseValue, set }) => {
    const value = responseValue;
    if (value instanceof Response) return compressResponse(request, value);
    const isText = typeof value === "string";
    const isJson =
      value !== null && typeof value === "object" && (Array.isArray(value) || Object.getPrototypeOf(value) === Object.prototype);
    // Files, streams, generators (SSE), undefined and named statuses: as Elysia maps them.
    if ((!isText && !isJson) || (set.status !== undefined && typeof set.status !== "number")) return undefined;
    const setType = set.headers["content-type"];
    const contentType = typeof setType === "string" ? setType : isText ? "text/plain;charset=utf-8" : "application/json;charset=utf-8";
    return textResponse(request, isText ? value : JSON.stringify(value), set.status ?? 200, contentType);
  });
}
