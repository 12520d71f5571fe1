import { describe, expect, test } from "bun:test";
import { t } from "elysia";
import { Integer } from "../../src/api/schemas/integer";
import { appRoutes, type RouteInfo, useTestServer } from "../support/server";

/**
 * Every /api route declares what it answers and what it reads, read from the app's route table:
 * a response schema (JSON tied to its presenter's type, or the media type of bytes and event
 * streams), and for a write a body schema that is not `t.Unknown()`. A new route that forgets
 * one fails here, so the typed client and the OpenAPI document never miss it.
 */

/** Writes that read no body (or read it themselves), each with the reason. */
const WRITES_WITHOUT_BODY: Record<string, string> = {
  "DELETE /api/mcp": "Answers 405: the MCP endpoint is stateless.",
  "DELETE /api/user/token/:tokenId": "The path names the token.",
  "PATCH /api/conversation/:conversationId/read": "The path names the conversation.",
  "PATCH /api/memory-trackers/:memoryTracker/mark-as-repeated": "The path names the tracker; the query says how it went.",
  "PATCH /api/notebooks/:notebook/move-to-circle/:circle": "The path names both.",
  "PATCH /api/notes/:note/undo-delete": "The path names the note.",
  "POST /api/admin/backups": "Takes a snapshot now.",
  "POST /api/admin/users/:account/password-reset": "The path names the account.",
  "POST /api/ai/assistant/recreate-default": "Rebuilt from the settings.",
  "POST /api/ai/assistant/recreate-notebook/:notebook": "Rebuilt from the notebook's settings.",
  "POST /api/ai/cancel-run/:threadId/:runId": "The path names the run.",
  "POST /api/ai/suggest-title/:note": "The path names the note.",
  "POST /api/assessment/:id": "Submits the attempt the path names.",
  "POST /api/assessment/questions/:notebook": "Starts an assessment of the notebook the path names.",
  "POST /api/bazaar/:bazaarNotebook/remove": "The path names the bazaar notebook.",
  "POST /api/certificate/:notebook": "Claims the certificate of the notebook the path names.",
  "POST /api/conversation/:conversationId/ai-reply": "The AI replies to the conversation as it stands.",
  "POST /api/fine-tuning/:suggestedQuestion/delete": "The path names the suggestion.",
  "POST /api/fine-tuning/:suggestedQuestion/duplicate": "The path names the suggestion.",
  "POST /api/fine-tuning/upload-and-trigger-fine-tuning": "Uses every stored suggestion.",
  "POST /api/mcp": "A JSON-RPC message, checked by the MCP SDK, which answers a bad one in JSON-RPC's own error shape.",
  "POST /api/memory-trackers/:memoryTracker/remove": "The path names the tracker.",
  "POST /api/notebook_certificate_approvals/:notebookCertificateApproval/approve": "The path names the request.",
  "POST /api/notebook_certificate_approvals/request-approval/:notebook": "The path names the notebook.",
  "POST /api/notebooks/:notebook/reset-index": "The path names the notebook.",
  "POST /api/notebooks/:notebook/share": "The path names the notebook.",
  "POST /api/notebooks/:notebook/update-index": "The path names the notebook.",
  "POST /api/notes/:note/delete": "The path names the note.",
  "POST /api/operations/:operation/dismiss": "The path names the operation.",
  "POST /api/notes/move_after/:note/:targetNote/:asFirstChild": "The path says it all.",
  "POST /api/predefined-questions/:id/delete": "The path names the question.",
  "POST /api/predefined-questions/:id/toggle-approval": "The path names the question.",
  "POST /api/predefined-questions/generate-question-without-save": "The query names the note.",
  "POST /api/recall-prompts/:recallPrompt/contest": "The path names the prompt.",
  "POST /api/subscriptions/:subscription/delete": "The path names the subscription.",
  "POST /api/testability/clean_db_and_reset_testability_settings": "Resets everything.",
  "POST /api/testability/trigger_exception": "Fails on purpose.",
  "POST /api/user/optimize-fsrs-parameters": "Fits the user's own log.",
  "POST /api/user/sessions/sign-out-others": "Ends the caller's other sessions.",
};

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const kindOf = (schema: unknown) => (schema as Record<symbol, unknown> | undefined)?.[Symbol.for("TypeBox.Kind")];

interface Hooks {
  body?: unknown;
  response?: unknown;
}

/** What each /api route misses, one line per problem. */
function missingSchemas(routes: RouteInfo[]): string[] {
  const problems: string[] = [];
  for (const route of routes) {
    if (!route.path.startsWith("/api/")) continue;
    const name = `${route.method} ${route.path}`;
    const hooks = (route.hooks ?? {}) as Hooks;
    if (!hooks.response) problems.push(`${name}: no response schema`);
    if (hooks.body && kindOf(hooks.body) === "Unknown") problems.push(`${name}: a t.Unknown() body`);
    if (WRITES.has(route.method) && !hooks.body && !(name in WRITES_WITHOUT_BODY)) problems.push(`${name}: no body schema`);
  }
  return problems.sort();
}

/**
 * Whether a schema holds a transform anywhere (Elysia's t.Integer, t.Numeric, t.BooleanString...):
 * Elysia then encodes every answer value by value before checking it, which costs much more than
 * the check (schemas/integer.ts). Answers use plain TypeBox types instead.
 */
function hasTransform(schema: unknown, seen = new Set<unknown>()): boolean {
  if (!schema || typeof schema !== "object" || seen.has(schema)) return false;
  seen.add(schema);
  if (Symbol.for("TypeBox.Transform") in schema) return true;
  return Object.values(schema).some((value) => hasTransform(value, seen));
}

/** The routes whose response schema holds a transform. */
function transformedResponses(routes: RouteInfo[]): string[] {
  return routes
    .filter((route) => route.path.startsWith("/api/") && hasTransform((route.hooks as Hooks | undefined)?.response))
    .map((route) => `${route.method} ${route.path}`)
    .sort();
}

describe("every /api route declares its schemas", () => {
  const server = useTestServer({}, { resetBeforeEach: false });
  let routes: RouteInfo[] | undefined;
  const tableOf = () => (routes ??= appRoutes(server.ctx));

  test("a response schema, and a body schema (not t.Unknown()) for each write that reads one", () => {
    expect(missingSchemas(tableOf())).toEqual([]);
  });

  test("the list of writes without a body names only routes that exist and read none", () => {
    const writes = new Map(tableOf().map((route) => [`${route.method} ${route.path}`, route.hooks as Hooks | undefined]));
    const stale = Object.keys(WRITES_WITHOUT_BODY).filter((name) => !writes.has(name) || writes.get(name)?.body);
    expect(stale).toEqual([]);
  });

  test("no response schema holds a transform, which would make Elysia encode each answer", () => {
    expect(transformedResponses(tableOf())).toEqual([]);
  });

  test("the transform check finds one nested in a response schema", () => {
    const routes: RouteInfo[] = [
      { method: "GET", path: "/api/plain", hooks: { response: { 200: t.Object({ id: Integer() }) } } as Hooks },
      { method: "GET", path: "/api/nested", hooks: { response: { 200: t.Array(t.Object({ id: t.Integer() })) } } as Hooks },
    ];
    expect(transformedResponses(routes)).toEqual(["GET /api/nested"]);
  });

  test("the check finds a route without a response, a t.Unknown() body and a write without a body", () => {
    const unknown = { [Symbol.for("TypeBox.Kind")]: "Unknown" };
    const described = { [Symbol.for("TypeBox.Kind")]: "Object" };
    const routes: RouteInfo[] = [
      { method: "GET", path: "/api/a", hooks: {} },
      { method: "POST", path: "/api/b", hooks: { body: unknown, response: described } as Hooks },
      { method: "PATCH", path: "/api/c", hooks: { response: described } as Hooks },
      { method: "POST", path: "/api/d", hooks: { body: described, response: described } as Hooks },
      { method: "GET", path: "/d/page", hooks: {} },
    ];
    expect(missingSchemas(routes)).toEqual([
      "GET /api/a: no response schema",
      "PATCH /api/c: no body schema",
      "POST /api/b: a t.Unknown() body",
    ]);
  });
});
