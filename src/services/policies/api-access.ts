/**
 * Which /api calls need nobody signed in: a visitor reads bazaar notebooks (note pages, their
 * tree, images and graph) and signs in; an identity without a profile may create it and manage
 * its sessions. Every other /api call from someone not signed in is 401 before its input is
 * validated (core.ts asks this in a transform hook, which Elysia runs before validation).
 */
const id = "[1-9][0-9]*";
const OPEN_TO_ANYONE: [method: string, path: RegExp][] = [
  ["GET", /^\/api\/healthcheck$/],
  ["GET", /^\/api\/user\/current-user-info$/],
  ["GET", new RegExp(`^/api/notes/${id}$`)],
  ["GET", new RegExp(`^/api/notes/${id}/(descendants|children|graph|accessory)$`)],
  ["GET", new RegExp(`^/api/images/${id}/[^/]+$`)],
  ["GET", new RegExp(`^/api/notebooks/${id}(/notes)?$`)],
  ["GET", /^\/api\/bazaar\/?$/],
  ["*", /^\/api\/testability\//],
];
const OPEN_TO_ACCOUNTS: [method: string, path: RegExp][] = [
  ["POST", /^\/api\/user\/?$/],
  ["GET", /^\/api\/user\/sessions$/],
  ["POST", /^\/api\/user\/sessions\/sign-out-others$/],
  ["POST", /^\/api\/user\/password$/],
];

const matches = (list: [string, RegExp][], method: string, path: string) =>
  list.some(([m, pattern]) => (m === "*" || m === method || (m === "GET" && method === "HEAD")) && pattern.test(path));

/** Whether a caller with this much identity may reach the endpoint (its own checks come after). */
export function mayCallApi(identity: "nobody" | "account" | "user", method: string, path: string): boolean {
  if (identity === "user" || !path.startsWith("/api/")) return true;
  if (matches(OPEN_TO_ANYONE, method, path)) return true;
  return identity === "account" && matches(OPEN_TO_ACCOUNTS, method, path);
}
