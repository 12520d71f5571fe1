/**
 * The /api routes a visitor may call without signing in (reading bazaar notebooks and their notes,
 * the bazaar itself, who is signed in, the health check and the contract). The testability
 * routes are open too, in non-production mode only; they are listed where they are checked.
 */
export const PUBLIC_API_ROUTES = [
  "GET /api/attachments/:attachment/:name",
  "GET /api/bazaar/",
  "GET /api/healthcheck",
  "GET /api/images/:image/:name",
  "GET /api/notebooks/:notebook",
  "GET /api/notebooks/:notebook/notes",
  "GET /api/notes/:note",
  "GET /api/notes/:note/accessory",
  "GET /api/notes/:note/attachment",
  "GET /api/notes/:note/changes",
  "GET /api/notes/:note/children",
  "GET /api/notes/:note/descendant-count",
  "GET /api/notes/:note/descendants",
  "GET /api/notes/:note/graph",
  "GET /api/openapi.json",
  "GET /api/user/current-user-info",
];
