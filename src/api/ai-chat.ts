import { Elysia, t } from "elysia";
import type { AppContext } from "../context";
import { aiReply, cancelRun, submitToolResults } from "../services/conversations/ai-chat";
import { sseResponse } from "../web/sse";
import { requireUser } from "./authentication";
import { core } from "./core";
import { IdParam } from "./ids";
import { AiReplyStream, RunObject } from "./schemas/ai-chat";

const runParams = t.Object({ threadId: t.String({ maxLength: 40 }), runId: t.String({ maxLength: 40 }) });

/**
 * Chat with the AI (docs/decisions.md, decision 12): the streamed reply, and the tool-result and cancel
 * calls of a run waiting for tool results. Answers are server-sent events ending with `done`.
 */
export function aiChatApi(ctx: AppContext) {
  return new Elysia({ prefix: "/api" })
    .use(core(ctx))
    .post(
      "/conversation/:conversationId/ai-reply",
      async ({ auth, params }) => sseResponse(await aiReply(ctx, requireUser(auth), params.conversationId)),
      { access: "signed-in", response: AiReplyStream, params: t.Object({ conversationId: IdParam }) },
    )
    .post(
      "/ai/submit-tool-results/:threadId/:runId",
      async ({ auth, params, body }) => sseResponse(await submitToolResults(ctx, requireUser(auth), params.threadId, params.runId, body)),
      {
        access: "signed-in",
        response: AiReplyStream,
        params: runParams,
        // Each pending tool call's id with its result (any JSON); the service checks them against the run.
        body: t.Record(t.String(), t.Unknown(), { error: "must map each tool call id to its result" }),
      },
    )
    .post("/ai/cancel-run/:threadId/:runId", ({ auth, params }) => cancelRun(ctx, requireUser(auth), params.threadId, params.runId), {
      access: "signed-in",
      response: RunObject,
      params: runParams,
    });
}
