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
  const origin = request.headers.get("origin");
  if (!origin) return request.headers.get("sec-fetch-site") === "cross-site";
  if (origin === new URL(request.url).origin) return false;
  if (ctx.config.publicUrl && origin === ctx.config.publicUrl.origin) return false;
  return true;
}
