import { Elysia } from "elysia";
import type { AppContext } from "../context";
import { accessoriesApi } from "./accessories";
import { adminApi } from "./admin";
import { aiChatApi } from "./ai-chat";
import { aiNoteActionsApi } from "./ai-note-actions";
import { aiSettingsApi } from "./ai-settings";
import { assessmentApi } from "./assessment";
import { assimilationApi } from "./assimilation";
import { assistantApi } from "./assistant";
import { attachmentsApi } from "./attachments";
import { backupsApi } from "./backups";
import { bazaarApi } from "./bazaar";
import { certificatesApi } from "./certificates";
import { circlesApi } from "./circles";
import { conversationsApi } from "./conversations";
import { fineTuningApi } from "./fine-tuning";
import { healthApi } from "./health";
import { linksApi } from "./links";
import { mcpApi } from "./mcp";
import { memoryTrackersApi } from "./memory-trackers";
import { notebooksApi } from "./notebooks";
import { notesApi } from "./notes";
import { obsidianApi } from "./obsidian";
import { operationsApi } from "./operations";
import { predefinedQuestionsApi } from "./predefined-questions";
import { recallApi } from "./recall";
import { recallLogApi } from "./recall-log";
import { recallPromptsApi } from "./recall-prompts";
import { searchApi } from "./search";
import { subscriptionsApi } from "./subscriptions";
import { testabilityApi } from "./testability";
import { usersApi } from "./users";
import { wikidataApi } from "./wikidata";

/**
 * Every /api area plugin (the test hooks aside), in one app whose type the typed client reads.
 * The areas are chained in two halves: one chain of them all is deeper than TypeScript follows.
 */
export function apiPlugins(ctx: AppContext) {
  return new Elysia({ name: "engram-api", seed: ctx.instanceId }).use(learningApis(ctx)).use(sharingAndToolApis(ctx));
}

function learningApis(ctx: AppContext) {
  return new Elysia({ name: "engram-api-learning", seed: ctx.instanceId })
    .use(healthApi(ctx))
    .use(usersApi(ctx))
    .use(notebooksApi(ctx))
    .use(notesApi(ctx))
    .use(searchApi(ctx))
    .use(wikidataApi(ctx))
    .use(accessoriesApi(ctx))
    .use(linksApi(ctx))
    .use(assimilationApi(ctx))
    .use(recallApi(ctx))
    .use(memoryTrackersApi(ctx))
    .use(recallPromptsApi(ctx))
    .use(aiSettingsApi(ctx))
    .use(backupsApi(ctx));
}

function sharingAndToolApis(ctx: AppContext) {
  return new Elysia({ name: "engram-api-sharing-and-tools", seed: ctx.instanceId })
    .use(bazaarApi(ctx))
    .use(subscriptionsApi(ctx))
    .use(circlesApi(ctx))
    .use(assessmentApi(ctx))
    .use(certificatesApi(ctx))
    .use(conversationsApi(ctx))
    .use(aiChatApi(ctx))
    .use(adminApi(ctx))
    .use(fineTuningApi(ctx))
    .use(assistantApi(ctx))
    .use(aiNoteActionsApi(ctx))
    .use(recallLogApi(ctx))
    .use(mcpApi(ctx))
    .use(obsidianApi(ctx))
    .use(attachmentsApi(ctx))
    .use(operationsApi(ctx))
    .use(predefinedQuestionsApi(ctx));
}

/** Every /api route with the test hooks, for the type only (server.tsx mounts the hooks outside production). */
const typedApi = (ctx: AppContext) => apiPlugins(ctx).use(testabilityApi(ctx));
/**
 * The API's type: the typed client (islands/lib/api.ts) and its callers are checked against it.
 * It lives here, beside the plugins, so that the client's type never reaches the pages (a cycle).
 */
export type App = ReturnType<typeof typedApi>;
