/**
 * The admin's "Fine Tuning Data": every suggested question, edited,
 * duplicated and deleted by an admin only.
 */
import { asc, eq } from "drizzle-orm";
import type { McqWithAnswer } from "../../ai/question-generation";
import type { AppContext } from "../../context";
import { suggestedQuestionsForFineTuning } from "../../db/schema";
import { orNotFound, ValidationError } from "../errors";
import { authorizeAdmin } from "../policies";
import {
  MAX_FEEDBACK_COMMENT_LENGTH,
  presentSuggestedQuestion,
  type SuggestedQuestionJson,
  type SuggestedQuestionRow,
} from "../predefined-questions/fine-tuning-suggestions";
import type { CurrentUser } from "../users";

export const FINE_TUNING_ADMIN_ONLY = "Only an administrator can manage the fine-tuning data";
/** The edit form has 4 choice fields (spec 9); more are refused. */
export const MAX_SUGGESTION_CHOICES = 4;
const MAX_CHOICE_LENGTH = 1000;
const MAX_STEM_LENGTH = 5000;
/** The preserved note description: a note's 200,000 characters of details with its title and path in JSON. */
const MAX_NOTE_CONTENT_LENGTH = 250_000;
const MAX_REAL_ANSWERS_LENGTH = 200;

export const CHOICES_MESSAGE = "At least 2 choices are required";
export const INDEX_MESSAGE = "Correct choice index is out of range";
export const NUMBER_LIST_MESSAGE = "must be a number list";
/** Comma-separated whole numbers ("1", "0, 2"); empty is allowed separately. */
const NUMBER_LIST = /^\s*\d{1,3}\s*(,\s*\d{1,3}\s*)*$/;

const loadSuggestion = (ctx: AppContext, id: number): SuggestedQuestionRow =>
  orNotFound(
    ctx.db.select().from(suggestedQuestionsForFineTuning).where(eq(suggestedQuestionsForFineTuning.id, id)).get(),
    "Suggested question",
  );

/** Every suggestion, oldest first (a duplicate lands after its original's peers, as in the reference). */
export function listSuggestedQuestions(ctx: AppContext, current: CurrentUser | undefined): SuggestedQuestionJson[] {
  authorizeAdmin(current, FINE_TUNING_ADMIN_ONLY);
  return ctx.db
    .select()
    .from(suggestedQuestionsForFineTuning)
    .orderBy(asc(suggestedQuestionsForFineTuning.id))
    .all()
    .map(presentSuggestedQuestion);
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Checks a QuestionSuggestionParams body against the stored row (a missing field keeps its
 * value). Spec 5: the choices are trimmed and blanks removed, at least 2 must be left; the
 * correct index must be below their count; real correct answers are a comma-separated number
 * list or empty. For positive feedback the real answer is the correct index (the field is hidden).
 */
export function validateSuggestionEdit(row: SuggestedQuestionRow, body: unknown) {
  if (!isRecord(body)) throw new ValidationError({ body: "must be an object" });
  const errors: Record<string, string> = {};
  const stored = JSON.parse(row.preservedQuestion) as McqWithAnswer;

  const text = (key: string, value: unknown, max: number, fallback: string): string => {
    if (value === undefined || value === null) return fallback;
    if (typeof value !== "string" || value.length > max) {
      errors[key] = `must be text of at most ${max} characters`;
      return fallback;
    }
    return value;
  };
  const comment = text("comment", body.comment, MAX_FEEDBACK_COMMENT_LENGTH, row.comment).trim();
  const preservedNoteContent = text("preservedNoteContent", body.preservedNoteContent, MAX_NOTE_CONTENT_LENGTH, row.preservedNoteContent);
  let positiveFeedback = row.positiveFeedback;
  if (body.positiveFeedback !== undefined && body.positiveFeedback !== null) {
    if (typeof body.positiveFeedback === "boolean") positiveFeedback = body.positiveFeedback;
    else errors.positiveFeedback = "must be true or false";
  }

  // Both are required by the contract: left out, they keep their value (a partial edit); null is refused.
  for (const key of ["preservedQuestion", "realCorrectAnswers"]) if (body[key] === null) errors[key] = "must not be null";
  let question = stored;
  const given = body.preservedQuestion;
  if (given !== undefined && given !== null) {
    if (!isRecord(given) || !isRecord(given.multipleChoicesQuestion)) {
      errors.preservedQuestion = "must be a question with its choices";
    } else {
      const mcq = given.multipleChoicesQuestion;
      const stem = text("preservedQuestion.multipleChoicesQuestion.stem", mcq.stem, MAX_STEM_LENGTH, "").trim();
      if (!stem && !errors["preservedQuestion.multipleChoicesQuestion.stem"])
        errors["preservedQuestion.multipleChoicesQuestion.stem"] = "must not be blank";
      const rawChoices = mcq.choices;
      let choices: string[] = [];
      if (
        !Array.isArray(rawChoices) ||
        rawChoices.length > MAX_SUGGESTION_CHOICES ||
        rawChoices.some((c) => c !== null && (typeof c !== "string" || c.length > MAX_CHOICE_LENGTH))
      ) {
        errors["preservedQuestion.multipleChoicesQuestion.choices"] =
          `must be at most ${MAX_SUGGESTION_CHOICES} texts of at most ${MAX_CHOICE_LENGTH} characters`;
      } else {
        choices = (rawChoices as (string | null)[]).map((c) => (c ?? "").trim()).filter((c) => c !== "");
        if (choices.length < 2) errors["preservedQuestion.multipleChoicesQuestion.choices"] = CHOICES_MESSAGE;
      }
      const index = given.correctChoiceIndex === undefined ? stored.correctChoiceIndex : given.correctChoiceIndex;
      if (typeof index !== "number" || !Number.isInteger(index) || index < 0 || (choices.length >= 2 && index >= choices.length)) {
        errors["preservedQuestion.correctChoiceIndex"] = INDEX_MESSAGE;
      }
      const strict = given.strictChoiceOrder;
      if (strict !== undefined && typeof strict !== "boolean") errors["preservedQuestion.strictChoiceOrder"] = "must be true or false";
      question = {
        multipleChoicesQuestion: { stem, choices },
        correctChoiceIndex: index as number,
        strictChoiceOrder: typeof strict === "boolean" ? strict : stored.strictChoiceOrder,
      };
    }
  }

  let realCorrectAnswers = text("realCorrectAnswers", body.realCorrectAnswers, MAX_REAL_ANSWERS_LENGTH, row.realCorrectAnswers).trim();
  if (positiveFeedback) realCorrectAnswers = String(question.correctChoiceIndex);
  else if (realCorrectAnswers !== "" && !NUMBER_LIST.test(realCorrectAnswers)) errors.realCorrectAnswers = NUMBER_LIST_MESSAGE;
  else
    realCorrectAnswers = realCorrectAnswers
      .split(",")
      .map((n) => n.trim())
      .filter(Boolean)
      .map(Number)
      .join(",");

  if (Object.keys(errors).length) throw new ValidationError(errors);
  return { comment, preservedNoteContent, positiveFeedback, realCorrectAnswers, preservedQuestion: JSON.stringify(question) };
}

/** PATCH /fine-tuning/{id}/update-suggested-question-for-fine-tuning. */
export function updateSuggestedQuestion(
  ctx: AppContext,
  current: CurrentUser | undefined,
  id: number,
  body: unknown,
): SuggestedQuestionJson {
  authorizeAdmin(current, FINE_TUNING_ADMIN_ONLY);
  const values = validateSuggestionEdit(loadSuggestion(ctx, id), body);
  const row = ctx.db
    .update(suggestedQuestionsForFineTuning)
    .set(values)
    .where(eq(suggestedQuestionsForFineTuning.id, id))
    .returning()
    .get();
  return presentSuggestedQuestion(row);
}

/** POST /fine-tuning/{id}/duplicate: a copy (new id, created now) to edit into a variant. */
export function duplicateSuggestedQuestion(ctx: AppContext, current: CurrentUser | undefined, id: number): SuggestedQuestionJson {
  authorizeAdmin(current, FINE_TUNING_ADMIN_ONLY);
  const { id: _id, createdAt: _createdAt, ...copy } = loadSuggestion(ctx, id);
  const row = ctx.db
    .insert(suggestedQuestionsForFineTuning)
    .values({ ...copy, createdAt: ctx.clock.now() })
    .returning()
    .get();
  return presentSuggestedQuestion(row);
}

/** POST /fine-tuning/{id}/delete: answers the deleted suggestion. */
export function deleteSuggestedQuestion(ctx: AppContext, current: CurrentUser | undefined, id: number): SuggestedQuestionJson {
  authorizeAdmin(current, FINE_TUNING_ADMIN_ONLY);
  const row = loadSuggestion(ctx, id);
  ctx.db.delete(suggestedQuestionsForFineTuning).where(eq(suggestedQuestionsForFineTuning.id, id)).run();
  return presentSuggestedQuestion(row);
}
