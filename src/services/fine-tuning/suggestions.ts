/**
 * The admin's "Fine Tuning Data": every suggested question, edited,
 * duplicated and deleted by an admin only.
 */
import type { McqWithAnswer } from "../../ai/question-generation";
import type { AppContext } from "../../context";
import type { SuggestedQuestionRow } from "../../store/fine-tuning/fine-tuning-store";
import { orNotFound, ValidationError } from "../errors";
import { authorizeAdmin } from "../policies";
import { presentSuggestedQuestion, type SuggestedQuestionJson } from "../predefined-questions/fine-tuning-suggestions";
import type { CurrentUser } from "../users";

export const FINE_TUNING_ADMIN_ONLY = "Only an administrator can manage the fine-tuning data";
/** The edit form has 4 choice fields (spec 9); more are refused. */
export const MAX_SUGGESTION_CHOICES = 4;
export const MAX_CHOICE_LENGTH = 1000;
export const MAX_STEM_LENGTH = 5000;
/** The preserved note description: a note's 200,000 characters of details with its title and path in JSON. */
export const MAX_NOTE_CONTENT_LENGTH = 250_000;
export const MAX_REAL_ANSWERS_LENGTH = 200;

export const CHOICES_MESSAGE = "At least 2 choices are required";
export const INDEX_MESSAGE = "Correct choice index is out of range";
export const NUMBER_LIST_MESSAGE = "must be a number list";
/** Comma-separated whole numbers ("1", "0, 2"); empty is allowed separately. */
const NUMBER_LIST = /^\s*\d{1,3}\s*(,\s*\d{1,3}\s*)*$/;

const SUGGESTION = "Suggested question";

/** Every suggestion, oldest first (a duplicate lands after its original's peers, as in the reference). */
export async function listSuggestedQuestions(ctx: AppContext, current: CurrentUser | undefined): Promise<SuggestedQuestionJson[]> {
  authorizeAdmin(current, FINE_TUNING_ADMIN_ONLY);
  return (await ctx.stores.fineTuning.list()).map(presentSuggestedQuestion);
}

/**
 * A suggestion's edit (QuestionSuggestionParams) as its route's schema lets it through: each
 * field's type and length are checked there (src/api/fine-tuning.ts); a field left out keeps its value.
 */
export interface SuggestionEdit {
  comment?: string | null;
  preservedNoteContent?: string | null;
  positiveFeedback?: boolean | null;
  preservedQuestion?: {
    multipleChoicesQuestion: { stem?: string | null; choices: (string | null)[] };
    correctChoiceIndex?: number;
    strictChoiceOrder?: boolean;
  };
  realCorrectAnswers?: string;
}

/**
 * Checks an edit against the stored row, beyond its fields' shapes. Spec 5: the choices are trimmed
 * and blanks removed, at least 2 must be left; the correct index must be below their count; real
 * correct answers are a comma-separated number list or empty. For positive feedback the real
 * answer is the correct index (the field is hidden).
 */
export function validateSuggestionEdit(row: SuggestedQuestionRow, edit: SuggestionEdit) {
  const errors: Record<string, string> = {};
  const stored = JSON.parse(row.preservedQuestion) as McqWithAnswer;
  const comment = (edit.comment ?? row.comment).trim();
  const preservedNoteContent = edit.preservedNoteContent ?? row.preservedNoteContent;
  const positiveFeedback = edit.positiveFeedback ?? row.positiveFeedback;

  let question = stored;
  const given = edit.preservedQuestion;
  if (given) {
    const stem = (given.multipleChoicesQuestion.stem ?? "").trim();
    if (!stem) errors["preservedQuestion.multipleChoicesQuestion.stem"] = "must not be blank";
    const choices = given.multipleChoicesQuestion.choices.map((c) => (c ?? "").trim()).filter((c) => c !== "");
    if (choices.length < 2) errors["preservedQuestion.multipleChoicesQuestion.choices"] = CHOICES_MESSAGE;
    const index = given.correctChoiceIndex ?? stored.correctChoiceIndex;
    if (choices.length >= 2 && index >= choices.length) errors["preservedQuestion.correctChoiceIndex"] = INDEX_MESSAGE;
    question = {
      multipleChoicesQuestion: { stem, choices },
      correctChoiceIndex: index,
      strictChoiceOrder: given.strictChoiceOrder ?? stored.strictChoiceOrder,
    };
  }

  let realCorrectAnswers = (edit.realCorrectAnswers ?? row.realCorrectAnswers).trim();
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
export async function updateSuggestedQuestion(
  ctx: AppContext,
  current: CurrentUser | undefined,
  id: number,
  edit: SuggestionEdit,
): Promise<SuggestedQuestionJson> {
  authorizeAdmin(current, FINE_TUNING_ADMIN_ONLY);
  const values = validateSuggestionEdit(orNotFound(await ctx.stores.fineTuning.find(id), SUGGESTION), edit);
  return presentSuggestedQuestion(orNotFound(await ctx.stores.fineTuning.update(id, values), SUGGESTION));
}

/** POST /fine-tuning/{id}/duplicate: a copy (new id, created now) to edit into a variant. */
export async function duplicateSuggestedQuestion(
  ctx: AppContext,
  current: CurrentUser | undefined,
  id: number,
): Promise<SuggestedQuestionJson> {
  authorizeAdmin(current, FINE_TUNING_ADMIN_ONLY);
  return presentSuggestedQuestion(orNotFound(await ctx.stores.fineTuning.duplicate(id, ctx.clock.now()), SUGGESTION));
}

/** POST /fine-tuning/{id}/delete: answers the deleted suggestion. */
export async function deleteSuggestedQuestion(
  ctx: AppContext,
  current: CurrentUser | undefined,
  id: number,
): Promise<SuggestedQuestionJson> {
  authorizeAdmin(current, FINE_TUNING_ADMIN_ONLY);
  return presentSuggestedQuestion(orNotFound(await ctx.stores.fineTuning.remove(id), SUGGESTION));
}
