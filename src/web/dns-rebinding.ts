/**
 * The MCP transport's guard against DNS rebinding: a page on an attacker's domain that resolves
 * to this machine reaches Engram from the browser of a user here, under the attacker's host
 * name. So a request that comes from this machine is served only under a name that means this
 * machine (localhost, 127.0.0.0/8, [::1]) or under ENGRAM_PUBLIC_URL's host; a trusted reverse
 * proxy on this machine vouches for the names it forwards when no public URL is configured.
 * Requests from other machines are not affected (they cannot be a rebinding of this machine).
 * Checked for every request to the MCP endpoint before anything else (server.tsx), so a
 * rebinding page gets 403 whether or not it holds a token.
 */
import type { AppContext } from "../context";
import { isTrusted, parseAddress } from "../services/auth/client-address";

const LOOPBACK_V4 = 127n; // 127.0.0.0/8
const LOOPBACK_V6 = 1n; // ::1

function isLoopbackAddress(address: string): boolean {
  const parsed = parseAddress(address);
  if (!parsed) return false;
  return parsed.version === 4 ? parsed.value >> 24n === LOOPBACK_V4 : parsed.value === LOOPBACK_V6;
}

/** The host name of a Host header ("[::1]:3000" → "[::1]"), lower case; undefined when it is not one. */
function hostNameOf(host: string): string | undefined {
  try {
    return new URL(`http://${host}`).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

const isLoopbackName = (name: string) => name === "localhost" || name.endsWith(".localhost") || isLoopbackAddress(name);

/** True when the request came from this machine under a host name that is not this machine's. */
export function isRebindingRequest(ctx: AppContext, request: Request, socketAddress: string | undefined): boolean {
  if (!socketAddress || !isLoopbackAddress(socketAddress)) return false;
  const name = hostNameOf(request.headers.get("host") ?? "");
  if (name === undefined) return true;
  if (isLoopbackName(name)) return false;
  const publicUrl = ctx.config.publicUrl;
  if (publicUrl) return name !== publicUrl.hostname.toLowerCase();
  return !isTrusted(socketAddress, ctx.config.trustedProxies);
}

type SocketSource = { requestIP(request: Request): { address: string } | null } | null | undefined;

/** A request to the MCP endpoint (/api/mcp, any method) that is a DNS rebinding. */
export function isMcpRebinding(ctx: AppContext, request: Request, server: SocketSource): boolean {
  if (new URL(request.url).pathname.replace(/\/$/, "") !== "/api/mcp") return false;
  return isRebindingRequest(ctx, request, server?.requestIP(request)?.address);
}
