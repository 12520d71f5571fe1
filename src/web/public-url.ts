import type { AppContext } from "../context";

/**
 * The origin people reach this Engram at: ENGRAM_PUBLIC_URL behind a proxy, else the request's
 * own origin. Links that leave the app (circle invitations, the MCP endpoint) start with it.
 */
export function publicOrigin(ctx: AppContext, request: Request): string {
  return (ctx.config.publicUrl ?? new URL(request.url)).origin;
}

/** The join link of a circle's invitation code, without the code: `{origin}/d/circles/join/`. */
export const joinLinkBase = (ctx: AppContext, request: Request) => `${publicOrigin(ctx, request)}/d/circles/join/`;
