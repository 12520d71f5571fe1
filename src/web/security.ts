import type { AppContext } from "../context";

/** Headers on every response: only our own scripts run, no framing, no sniffing, little referrer. */
export const SECURITY_HEADERS: Record<string, string> = {
  "content-security-policy": [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https: http:",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; "),
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "strict-origin-when-cross-origin",
  "cross-origin-opener-policy": "same-origin",
};

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Cross-site request protection for cookie-authenticated changes: a browser always sends Origin on
 * a cross-site POST/PATCH/DELETE, so a request whose Origin is not this site (or its public URL) is
 * refused. Scripts and bearer-token clients send no Origin and are not affected.
 */
export function isCrossSiteWrite(ctx: AppContext, request: Request): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  // The MCP endpoint has its own, stricter rule (isRefusedMcpOrigin).
  if (isMcpEndpoint(request)) return false;
  const origin = request.headers.get("origin");
  if (!origin) return request.headers.get("sec-fetch-site") === "cross-site";
  if (origin === new URL(request.url).origin) return false;
  if (ctx.config.publicUrl && origin === ctx.config.publicUrl.origin) return false;
  return true;
}

/** The MCP endpoint (Streamable HTTP), whose callers are assistants rather than Engram's pages. */
export const isMcpEndpoint = (request: Request) => new URL(request.url).pathname.replace(/\/$/, "") === "/api/mcp";

const isLoopbackHost = (hostname: string) => hostname === "localhost" || hostname === "[::1]" || /^127(\.\d{1,3}){3}$/.test(hostname);

/**
 * The MCP specification's guard against DNS rebinding: a request to the MCP endpoint that carries
 * an Origin header is served only when that origin is ENGRAM_PUBLIC_URL's or a loopback one
 * (an assistant or inspector on this machine). The Host header is not trusted: a rebinding page
 * sends its own. No Origin at all (command-line clients, `engram mcp`) is served.
 */
export function isRefusedMcpOrigin(ctx: AppContext, request: Request): boolean {
  const origin = request.headers.get("origin");
  if (origin === null) return false;
  if (ctx.config.publicUrl && origin === ctx.config.publicUrl.origin) return false;
  try {
    const url = new URL(origin);
    return !((url.protocol === "http:" || url.protocol === "https:") && isLoopbackHost(url.hostname) && url.origin === origin);
  } catch {
    return true;
  }
}
