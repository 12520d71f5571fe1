import { Elysia, t } from "elysia";
import type { AppContext } from "../context";
import { startConversationAboutAssessmentQuestion } from "../services/conversations/conversation-service";
import { optionalUser } from "./authentication";
import { core } from "./core";
import { IdParam } from "./ids";

/** The feedback as the reference sends it (a JSON string), or as {feedback}. */
const feedbackOf = (body: unknown) =>
  typeof body === "object" && body !== null && "feedback" in body ? (body as { feedback: unknown }).feedback : body;

/** /api/conversation: conversations about notes, answered questions and assessment questions. */
export function conversationsApi(ctx: AppContext) {
  return new Elysia({ prefix: "/api/conversation" })
    .use(core(ctx))
    .post("/assessment-question/:assessmentQuestion", ({ auth, params, body }) =>
      startConversationAboutAssessmentQuestion(ctx, optionalUser(auth), params.assessmentQuestion, feedbackOf(body)), {
      params: t.Object({ assessmentQuestion: IdParam }),
      body: t.Unknown(),
    });
}
