import { Elysia, t } from "elysia";
import { MODEL_NAME_MESSAGE } from "../ai/model-settings";
import type { AppContext } from "../context";
import { ValidationError } from "../services/errors";
import {
  deleteSuggestedQuestion,
  duplicateSuggestedQuestion,
  INDEX_MESSAGE,
  listSuggestedQuestions,
  MAX_CHOICE_LENGTH,
  MAX_NOTE_CONTENT_LENGTH,
  MAX_REAL_ANSWERS_LENGTH,
  MAX_STEM_LENGTH,
  MAX_SUGGESTION_CHOICES,
  type SuggestionEdit,
  updateSuggestedQuestion,
} from "../services/fine-tuning/suggestions";
import { fineTuningSettings, updateFineTuningSettings, uploadAndTriggerFineTuning } from "../services/fine-tuning/training";
import { checkApiAccess } from "../services/policies/api-access";
import { MAX_FEEDBACK_COMMENT_LENGTH } from "../services/predefined-questions/fine-tuning-suggestions";
import { requireUser } from "./authentication";
import { core } from "./core";
import { IdParam } from "./ids";
import { FineTuningSettingsSchema, FineTuningTrigger, SuggestedQuestionForFineTuning } from "./schemas/admin";
import { describes } from "./schemas/same-type";

const textOfAtMost = (max: number) => `must be text of at most ${max} characters`;
/** A text field an edit may leave out, or send as null, to keep its value. */
const optionalText = (max: number) => t.Optional(t.Union([t.String({ maxLength: max }), t.Null()], { error: textOfAtMost(max) }));

const CHOICES_KEY = "preservedQuestion.multipleChoicesQuestion.choices";
const CHOICES_SHAPE_MESSAGE = `must be at most ${MAX_SUGGESTION_CHOICES} texts of at most ${MAX_CHOICE_LENGTH} characters`;
const QUESTION_MESSAGE = "must be a question with its choices";
/** The contract requires both the question and the real answers: left out, they keep their value; null is refused. */
const NOT_NULL = "must not be null";

/**
 * QuestionSuggestionParams: the fields' types and lengths, with the edit form's field keys (the
 * question's nested fields dotted, as the form reads them). What depends on the stored suggestion
 * (enough choices once blanks are gone, the index among them, the answers list) is the service's.
 */
const SuggestionEditBody = describes<SuggestionEdit>()(
  t.Object(
    {
      comment: optionalText(MAX_FEEDBACK_COMMENT_LENGTH),
      preservedNoteContent: optionalText(MAX_NOTE_CONTENT_LENGTH),
      positiveFeedback: t.Optional(t.Union([t.Boolean(), t.Null()], { error: "must be true or false" })),
      preservedQuestion: t.Optional(
        t.Object(
          {
            multipleChoicesQuestion: t.Object(
              {
                stem: optionalText(MAX_STEM_LENGTH),
                choices: t.Array(
                  t.Union([t.String({ maxLength: MAX_CHOICE_LENGTH }), t.Null()], { error: CHOICES_SHAPE_MESSAGE, errorKey: CHOICES_KEY }),
                  { maxItems: MAX_SUGGESTION_CHOICES, error: CHOICES_SHAPE_MESSAGE },
                ),
              },
              { error: QUESTION_MESSAGE, errorKey: "preservedQuestion" },
            ),
            correctChoiceIndex: t.Optional(t.Integer({ minimum: 0, error: INDEX_MESSAGE })),
            strictChoiceOrder: t.Optional(t.Boolean({ error: "must be true or false" })),
          },
          { error: QUESTION_MESSAGE, nullError: NOT_NULL },
        ),
      ),
      realCorrectAnswers: t.Optional(
        t.String({ maxLength: MAX_REAL_ANSWERS_LENGTH, error: textOfAtMost(MAX_REAL_ANSWERS_LENGTH), nullError: NOT_NULL }),
      ),
    },
    { error: "must be an object" },
  ),
);

const suggestion = { access: "admin", params: t.Object({ suggestedQuestion: IdParam }) } as const;

/**
 * The admin's fine-tuning data: suggested questions, the base model of jobs
 * (beyond the reference), and the upload and trigger. Every route is for admins: a non-admin gets
 * 403 before the body is looked at.
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
      {
        ...suggestion,
        body: SuggestionEditBody,
        response: SuggestedQuestionForFineTuning,
        // Elysia would read a body that is not an object as an empty edit; the contract refuses it.
        // This hook runs before the access macro's, so it asks who may call first.
        transform: ({ auth, body }) => {
          checkApiAccess(suggestion.access, auth);
          if (typeof body !== "object" || body === null || Array.isArray(body)) throw new ValidationError({ body: "must be an object" });
        },
      },
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
