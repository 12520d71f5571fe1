import { describe, expect, test } from "bun:test";
import { type ApiAccess, declaredAccess } from "../../src/services/policies/api-access";
import { PUBLIC_API_ROUTES } from "../support/public-routes";
import { appRoutes, useTestServer } from "../support/server";

/**
 * Every /api route and the access it declares, read from the app's route table. A new route
 * must be added here with its level: the table is compared whole, so a route cannot be added,
 * removed or opened up without this list changing in the same commit.
 */
const EXPECTED: Record<ApiAccess, string[]> = {
  public: [
    ...PUBLIC_API_ROUTES,
    "GET /api/testability/feature_toggle",
    "POST /api/testability/clean_db_and_reset_testability_settings",
    "POST /api/testability/feature_toggle",
    "POST /api/testability/inject-predefined-questions",
    "POST /api/testability/inject_circle",
    "POST /api/testability/inject_notes",
    "POST /api/testability/inject_suggested_questions",
    "POST /api/testability/link_notes",
    "POST /api/testability/randomizer",
    "POST /api/testability/replace_service_url",
    "POST /api/testability/share_to_bazaar",
    "POST /api/testability/time_travel",
    "POST /api/testability/time_travel_relative_to_now",
    "POST /api/testability/trigger_exception",
    "POST /api/testability/update_current_user",
  ],
  account: ["GET /api/user/sessions", "POST /api/user/", "POST /api/user/password", "POST /api/user/sessions/sign-out-others"],
  "signed-in": [
    "DELETE /api/mcp",
    "DELETE /api/user/token/:tokenId",
    "GET /api/assessment/",
    "GET /api/assimilation/assimilating",
    "GET /api/assimilation/count",
    "GET /api/certificate/:notebook",
    "GET /api/circles/",
    "GET /api/circles/:circle",
    "GET /api/conversation/:conversationId",
    "GET /api/conversation/:conversationId/messages",
    "GET /api/conversation/all",
    "GET /api/conversation/note/:note",
    "GET /api/conversation/unread",
    "GET /api/mcp",
    "GET /api/memory-trackers/:memoryTracker",
    "GET /api/memory-trackers/:memoryTracker/spelling-question",
    "GET /api/memory-trackers/recent",
    "GET /api/memory-trackers/recently-reviewed",
    "GET /api/notebook_certificate_approvals/for-notebook/:notebook",
    "GET /api/notebooks/",
    "GET /api/notebooks/:notebook/ai-assistant",
    "GET /api/notebooks/:notebook/dump",
    "GET /api/notebooks/:notebook/obsidian",
    "GET /api/notes/:note/note-info",
    "GET /api/notes/recent",
    "GET /api/operations/",
    "GET /api/operations/:operation",
    "GET /api/predefined-questions/:id/note-questions",
    "GET /api/predefined-questions/notebook/:notebook/questions",
    "GET /api/recall-log",
    "GET /api/recall-prompts/:recallPrompt",
    "GET /api/recall-prompts/:recallPrompt/question",
    "GET /api/recalls/offline-pack",
    "GET /api/recalls/overview",
    "GET /api/recalls/recalling",
    "GET /api/settings/current-model-version",
    "GET /api/settings/embedding",
    "GET /api/stats",
    "GET /api/user/",
    "GET /api/user/get-tokens",
    "GET /api/wikidata/entity-data/:wikidataId",
    "GET /api/wikidata/search/:search",
    "PATCH /api/conversation/:conversationId/read",
    "PATCH /api/memory-trackers/:memoryTracker/mark-as-repeated",
    "PATCH /api/notebooks/:notebook/ai-assistant",
    "PATCH /api/notebooks/:notebook/move-to-circle/:circle",
    "PATCH /api/notes/:note",
    "PATCH /api/notes/:note/undo-delete",
    "PATCH /api/predefined-questions/:id",
    "PATCH /api/text_content/:note/details",
    "PATCH /api/text_content/:note/title",
    "PATCH /api/user/:user",
    "POST /api/ai/assistant/recreate-notebook/:notebook",
    "POST /api/ai/cancel-run/:threadId/:runId",
    "POST /api/ai/generate-image",
    "POST /api/ai/submit-tool-results/:threadId/:runId",
    "POST /api/ai/suggest-title/:note",
    "POST /api/assessment/:id",
    "POST /api/assessment/:id/answer",
    "POST /api/assessment/questions/:notebook",
    "POST /api/assimilation",
    "POST /api/audio/audio-to-text",
    "POST /api/certificate/:notebook",
    "POST /api/circles/",
    "POST /api/circles/:circle/notebooks",
    "POST /api/circles/join",
    "POST /api/conversation/:conversationId/ai-reply",
    "POST /api/conversation/:conversationId/send",
    "POST /api/conversation/assessment-question/:assessmentQuestion",
    "POST /api/conversation/note/:note",
    "POST /api/conversation/recall-prompt/:recallPrompt",
    "POST /api/links/:link",
    "POST /api/links/create/:sourceNote/:targetNote",
    "POST /api/links/move/:sourceNote/:targetNote",
    "POST /api/mcp",
    "POST /api/mcp/notes/create",
    "POST /api/memory-trackers/:memoryTracker/answer-spelling",
    "POST /api/memory-trackers/:memoryTracker/remove",
    "POST /api/memory-trackers/:memoryTracker/self-evaluate",
    "POST /api/notebook_certificate_approvals/request-approval/:notebook",
    "POST /api/notebooks/:notebook",
    "POST /api/notebooks/:notebook/obsidian",
    "POST /api/notebooks/:notebook/reset-index",
    "POST /api/notebooks/:notebook/share",
    "POST /api/notebooks/:notebook/update-index",
    "POST /api/notebooks/anki",
    "POST /api/notebooks/create",
    "POST /api/notes/:note/create",
    "POST /api/notes/:note/create-after",
    "POST /api/notes/:note/delete",
    "POST /api/notes/:note/review-setting",
    "POST /api/notes/:note/search",
    "POST /api/notes/:note/semantic-search",
    "POST /api/notes/:note/updateWikidataId",
    "POST /api/notes/move_after/:note/:targetNote/:asFirstChild",
    "POST /api/notes/search",
    "POST /api/notes/semantic-search",
    "POST /api/operations/:operation/dismiss",
    "POST /api/predefined-questions/:id/delete",
    "POST /api/predefined-questions/:id/note-questions",
    "POST /api/predefined-questions/:id/refine-question",
    "POST /api/predefined-questions/:id/suggest-fine-tuning",
    "POST /api/predefined-questions/:id/toggle-approval",
    "POST /api/predefined-questions/generate-question-without-save",
    "POST /api/recall-prompts/:recallPrompt/answer",
    "POST /api/recall-prompts/:recallPrompt/contest",
    "POST /api/recall-prompts/:recallPrompt/regenerate",
    "POST /api/recalls/offline-answers",
    "POST /api/subscriptions/:subscription",
    "POST /api/subscriptions/:subscription/delete",
    "POST /api/subscriptions/notebooks/:notebook/subscribe",
    "POST /api/user/generate-token",
    "POST /api/user/optimize-fsrs-parameters",
  ],
  admin: [
    "DELETE /api/failure-reports/delete",
    "GET /api/admin/backups",
    "GET /api/admin/notebooks",
    "GET /api/admin/users",
    "GET /api/ai/assistant/default",
    "GET /api/ai/available-gpt-models",
    "GET /api/data_upgrade",
    "GET /api/failure-reports",
    "GET /api/failure-reports/:failureReport",
    "GET /api/fine-tuning/all-suggested-questions-for-fine-tuning",
    "GET /api/fine-tuning/settings",
    "GET /api/notebook_certificate_approvals/get-all-pending-request",
    "PATCH /api/admin/users/:account",
    "PATCH /api/ai/assistant/default",
    "PATCH /api/fine-tuning/:suggestedQuestion/update-suggested-question-for-fine-tuning",
    "POST /api/admin/backups",
    "POST /api/admin/users/:account/password-reset",
    "POST /api/ai/assistant/recreate-default",
    "POST /api/bazaar/:bazaarNotebook/remove",
    "POST /api/fine-tuning/:suggestedQuestion/delete",
    "POST /api/fine-tuning/:suggestedQuestion/duplicate",
    "POST /api/fine-tuning/settings",
    "POST /api/fine-tuning/upload-and-trigger-fine-tuning",
    "POST /api/notebook_certificate_approvals/:notebookCertificateApproval/approve",
    "POST /api/settings/current-model-version",
    "POST /api/settings/embedding",
  ],
};

describe("access declared on the route", () => {
  const server = useTestServer();

  test("every /api route declares the expected access level", () => {
    const actual: Record<string, string[]> = { public: [], account: [], "signed-in": [], admin: [] };
    for (const route of appRoutes(server.ctx)) {
      if (!route.path.startsWith("/api/")) continue;
      actual[declaredAccess(route) ?? "undeclared"] ??= [];
      actual[declaredAccess(route) ?? "undeclared"]!.push(`${route.method} ${route.path}`);
    }
    const sorted = (lists: Record<string, string[]>) =>
      Object.fromEntries(Object.entries(lists).map(([level, list]) => [level, [...list].sort()]));
    expect(sorted(actual)).toEqual(sorted(EXPECTED));
  });

  test("an admin route answers 401 signed out, 403 to a user and passes an admin, before validating the body", async () => {
    const body = { admin: "not a boolean" };
    expect((await server.client().patch("/api/admin/users/1", body)).status).toBe(401);
    const user = await server.client().loginAs("old_learner");
    const refused = await user.patch("/api/admin/users/1", body);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe("Only an administrator can do this");
    const admin = await server.client().loginAs("admin");
    expect((await admin.get("/api/admin/users")).status).toBe(200);
  });

  test("an identity without a profile reaches account routes and gets 401 from signed-in ones", async () => {
    const client = await server.client().loginAs("user");
    expect((await client.get("/api/user/sessions")).status).toBe(200);
    expect((await client.get("/api/notebooks")).status).toBe(401);
    expect((await client.get("/api/admin/users")).status).toBe(401);
  });
});
