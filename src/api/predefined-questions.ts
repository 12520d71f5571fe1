import { Elysia, t } from "elysia";
import type { AppContext } from "../context";
import { generateQuestionWithoutSave, refineQuestion } from "../services/predefined-questions/ai-questions";
import { MAX_FEEDBACK_COMMENT_LENGTH, suggestForFineTuning } from "../services/predefined-questions/fine-tuning-suggestions";
import {
  addQuestion,
  deleteQuestion,
  notebookQuestions,
  noteQuestions,
  toggleApproval,
  updateQuestion,
} from "../services/predefined-questions/note-questions";
import { requireUser } from "./authentication";
import { core } from "./core";
import { IdParam } from "./ids";
import { NoteQuestions, PredefinedQuestion, SuggestedQuestionForFineTuning } from "./schemas/admin";
import { NoContent } from "./schemas/media";

/**
 * One parameter name for the id after /predefined-questions/ (Elysia needs one name per
 * position): a note's id in /{id}/note-questions and /{id}/refine-question, a question's id in
 * /{id}/toggle-approval, /{id}/suggest-fine-tuning, /{id} and /{id}/delete.
 */
const idParams = t.Object({ id: IdParam });

/** The question bodies are checked by the service, so that every field gets its own message. */
const questionBody = t.Object({}, { additionalProperties: true, error: "must be a question" });

/** /api/predefined-questions: a note's multiple-choice questions, added by hand or with the AI, approval and feedback. */
export function predefinedQuestionsApi(ctx: AppContext) {
  return (
    new Elysia({ prefix: "/api/predefined-questions" })
      .use(core(ctx))
      .get("/:id/note-questions", ({ auth, params }) => noteQuestions(ctx, requireUser(auth), params.id), {
        access: "signed-in",
        response: t.Array(PredefinedQuestion),
        params: idParams,
      })
      .post("/:id/note-questions", ({ auth, params, body }) => addQuestion(ctx, requireUser(auth), params.id, body), {
        access: "signed-in",
        response: PredefinedQuestion,
        params: idParams,
        body: questionBody,
      })
      .post("/:id/refine-question", ({ auth, params, body }) => refineQuestion(ctx, requireUser(auth), params.id, body), {
        access: "signed-in",
        response: t.Union([PredefinedQuestion, t.Null()]),
        params: idParams,
        body: questionBody,
      })
      .post("/generate-question-without-save", ({ auth, query }) => generateQuestionWithoutSave(ctx, requireUser(auth), query.note), {
        access: "signed-in",
        response: t.Union([PredefinedQuestion, t.Null()]),
        query: t.Object({ note: IdParam }, { additionalProperties: true }),
      })
      .post("/:id/toggle-approval", ({ auth, params }) => toggleApproval(ctx, requireUser(auth), params.id), {
        access: "signed-in",
        response: PredefinedQuestion,
        params: idParams,
      })
      .post("/:id/suggest-fine-tuning", ({ auth, params, body }) => suggestForFineTuning(ctx, requireUser(auth), params.id, body), {
        access: "signed-in",
        response: SuggestedQuestionForFineTuning,
        params: idParams,
        body: t.Object(
          {
            isPositiveFeedback: t.Boolean({ error: "must be true or false" }),
            comment: t.Optional(
              t.Union([t.String({ maxLength: MAX_FEEDBACK_COMMENT_LENGTH }), t.Null()], {
                error: `must be a text of at most ${MAX_FEEDBACK_COMMENT_LENGTH} characters`,
              }),
            ),
          },
          { additionalProperties: true },
        ),
      })
      // Not in the reference API: editing a question (its approval is reset) and deleting one.
      .patch("/:id", ({ auth, params, body }) => updateQuestion(ctx, requireUser(auth), params.id, body), {
        access: "signed-in",
        response: PredefinedQuestion,
        params: idParams,
        body: questionBody,
      })
      .post(
        "/:id/delete",
        async ({ auth, params, set }) => {
          await deleteQuestion(ctx, requireUser(auth), params.id);
          set.status = 204;
        },
        { access: "signed-in", params: idParams, response: { 204: NoContent } },
      )
      // Not in the reference API: the notebook's questions grouped by note, for "Notebook Questions".
      .get("/notebook/:notebook/questions", ({ auth, params }) => notebookQuestions(ctx, requireUser(auth), params.notebook), {
        access: "signed-in",
        response: t.Array(NoteQuestions),
        params: t.Object({ notebook: IdParam }),
      })
  );
}
