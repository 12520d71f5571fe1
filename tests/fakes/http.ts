/**
 * Small helpers shared by the fake servers in this folder.
 */

/** One request as a fake server received it. */
export interface RecordedRequest {
  method: string;
  /** The path exactly as received, e.g. `/v1/chat/completions`. */
  path: string;
  /** Query parameters (last value wins for repeated keys). */
  query: Record<string, string>;
  /** Request headers, lower-cased names. */
  headers: Record<string, string>;
  /** Parsed JSON body, the raw text when it is not JSON, or `undefined` when empty. */
  body: unknown;
  /** When the request arrived (ms since epoch). */
  receivedAt: number;
}

export async function recordRequest(req: Request): Promise<RecordedRequest> {
  const url = new URL(req.url);
  const query: Record<string, string> = {};
  url.searchParams.forEach((value, key) => {
    query[key] = value;
  });
  const headers: Record<string, string> = {};
  req.headers.forEach((value, key) => {
    headers[key.toLowerCase()] = value;
  });
  let body: unknown;
  if (req.method !== "GET" && req.method !== "HEAD") {
    const text = await req.text();
    if (text.length > 0) {
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    }
  }
  return { method: req.method, path: url.pathname, query, headers, body, receivedAt: Date.now() };
}

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

/** Waits `ms`, or less if the client goes away first (so a stopped test does not leave timers behind). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

export function matchesText(pattern: string | RegExp, text: string): boolean {
  if (typeof pattern === "string") return text.includes(pattern);
  pattern.lastIndex = 0; // a /g or /y regex keeps state between calls
  return pattern.test(text);
}
