import { Elysia, t } from "elysia";
import { MODEL_NAME_MESSAGE } from "../ai/model-settings";
import type { AppContext } from "../context";
import {
  deleteSuggestedQuestion,
  duplicateSuggestedQuestion,
  listSuggestedQuestions,
  updateSuggestedQuestion,
} from "../services/fine-tuning/suggestions";
import { fineTuningSettings, updateFineTuningSettings, uploadAndTriggerFineTuning } from "../services/fine-tuning/training";
import { requireUser } from "./authentication";
import { core } from "./core";
import { IdParam } from "./ids";
import { FineTuningSettingsSchema, FineTuningTrigger, SuggestedQuestionForFineTuning } from "./schemas/admin";

const suggestion = { access: "admin", params: t.Object({ suggestedQuestion: IdParam }) } as const;

/**
 * The admin's fine-tuning data: suggested questions, the base model of jobs
 * (beyond the reference), and the upload and trigger. Every route is for admins: a non-admin gets
 * 403 before the body is looked at. A suggestion's edit is checked field by field by the service.
 */
export function fineTuningApi(ctx: AppContext) {
  return new Elysia({ prefix: "/api/fine-tuning" })
    .use(core(ctx))
    .get("/all-suggested-questions-for-fine-tuning", ({ auth }) => listSuggestedQuestions(ctx, requireUser(auth)), {
      access: "admin",
      response: t.Array(SuggestedQuestionForFineTuning),
    })
    .patch(
      "/:suggestedQuestion/update-suggested-question-for-fine-tuning",
      ({ auth, params, body }) => updateSuggestedQuestion(ctx, requireUser(auth), params.suggestedQuestion, body),
      { ...suggestion, body: t.Unknown(), response: SuggestedQuestionForFineTuning },
    )
    .post(
      "/:suggestedQuestion/duplicate",
      ({ auth, params }) => duplicateSuggestedQuestion(ctx, requireUser(auth), params.suggestedQuestion),
      { ...suggestion, response: SuggestedQuestionForFineTuning },
    )
    .post("/:suggestedQuestion/delete", ({ auth, params }) => deleteSuggestedQuestion(ctx, requireUser(auth), params.suggestedQuestion), {
      ...suggestion,
      response: SuggestedQuestionForFineTuning,
    })
    .get("/settings", ({ auth }) => fineTuningSettings(ctx, requireUser(auth)), {
      access: "admin",
      response: FineTuningSettingsSchema,
    })
    .post("/settings", ({ auth, body }) => updateFineTuningSettings(ctx, requireUser(auth), body), {
      access: "admin",
      response: FineTuningSettingsSchema,
      body: t.Object({ baseModel: t.String({ error: MODEL_NAME_MESSAGE }) }, { additionalProperties: true }),
    })
    .post("/upload-and-trigger-fine-tuning", ({ auth }) => uploadAndTriggerFineTuning(ctx, requireUser(auth)), {
      access: "admin",
      response: FineTuningTrigger,
    });
}
