import { Elysia, t } from "elysia";
import type { AppContext } from "../context";
import { contestRecallPrompt, MAX_ADVICE_LENGTH, regenerateRecallPrompt } from "../services/recall-prompts/contest";
import { answerRecallPrompt, askAQuestion, showRecallPrompt } from "../services/recall-prompts/recall-prompt-service";
import { requireUser } from "./authentication";
import { core } from "./core";
import { idempotencyKeyOf } from "./idempotency";
import { IdParam, ThinkingTimeField } from "./ids";
import { AnsweredQuestion, AnsweredQuestionOrNone, QuestionContestResult, RecallPromptOrNone } from "./schemas/memory";

/**
 * One parameter name for the id after /recall-prompts/ (Elysia needs one name per position):
 * a recall prompt's id, except in /{memoryTracker}/question where it is the memory tracker's.
 */
const promptParams = t.Object({ recallPrompt: IdParam });

/** /api/recall-prompts: multiple-choice questions for memory trackers, answers, contest and regenerate. */
export function recallPromptsApi(ctx: AppContext) {
  return new Elysia({ prefix: "/api/recall-prompts" })
    .use(core(ctx))
    .get("/:recallPrompt/question", ({ auth, params }) => askAQuestion(ctx, requireUser(auth), params.recallPrompt), {
      access: "signed-in",
      response: RecallPromptOrNone,
      params: promptParams,
    })
    .get("/:recallPrompt", ({ auth, params }) => showRecallPrompt(ctx, requireUser(auth), params.recallPrompt), {
      access: "signed-in",
      response: AnsweredQuestionOrNone,
      params: promptParams,
    })
    .post(
      "/:recallPrompt/answer",
      ({ auth, params, body, headers }) =>
        answerRecallPrompt(ctx, requireUser(auth), params.recallPrompt, body.choiceIndex, body.thinkingTimeMs, idempotencyKeyOf(headers)),
      {
        access: "signed-in",
        response: AnsweredQuestion,
        params: promptParams,
        body: t.Object(
          { choiceIndex: t.Integer({ minimum: 0, error: "must be the index of one of the choices" }), thinkingTimeMs: ThinkingTimeField },
          { additionalProperties: true },
        ),
      },
    )
    .post("/:recallPrompt/contest", ({ auth, params }) => contestRecallPrompt(ctx, requireUser(auth), params.recallPrompt), {
      access: "signed-in",
      response: QuestionContestResult,
      params: promptParams,
    })
    .post(
      "/:recallPrompt/regenerate",
      ({ auth, params, body }) => regenerateRecallPrompt(ctx, requireUser(auth), params.recallPrompt, body ?? {}),
      {
        access: "signed-in",
        response: RecallPromptOrNone,
        params: promptParams,
        body: t.Optional(
          t.Object(
            {
              advice: t.Optional(
                t.Union([t.String({ maxLength: MAX_ADVICE_LENGTH }), t.Null()], {
                  error: `must be a text of at most ${MAX_ADVICE_LENGTH} characters`,
                }),
              ),
              rejected: t.Optional(t.Union([t.Boolean(), t.Null()])),
            },
            { additionalProperties: true },
          ),
        ),
      },
    );
}
