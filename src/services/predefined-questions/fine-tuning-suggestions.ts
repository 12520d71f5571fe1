/**
 * "Suggest for fine-tuning": a reader's feedback on a question, kept with
 * the note and the question as they are now, for the admin's fine-tuning data.
 */
import type { McqWithAnswer } from "../../ai/question-generation";
import type { AppContext } from "../../context";
import type { SuggestedQuestionRow } from "../../store/fine-tuning/fine-tuning-store";
import { ForbiddenError } from "../errors";
import { authorizeRead, mayReadAnswerKeys, notebookRole } from "../policies";
import { storedQuestion } from "../recall-prompts/rows";
import type { CurrentUser } from "../users";
import { noteDescription } from "./note-description";
import { loadQuestion } from "./note-questions";

export type { SuggestedQuestionRow } from "../../store/fine-tuning/fine-tuning-store";

/** Longest feedback comment, in characters. */
export const MAX_FEEDBACK_COMMENT_LENGTH = 2000;

/** SuggestedQuestionForFineTuning of the reference's API contract. */
export interface SuggestedQuestionJson {
  id: number;
  comment: string;
  preservedQuestion: McqWithAnswer;
  preservedNoteContent: string;
  realCorrectAnswers: string;
  createdAt: string;
  positiveFeedback: boolean;
}

export function presentSuggestedQuestion(row: SuggestedQuestionRow): SuggestedQuestionJson {
  return {
    id: row.id,
    comment: row.comment,
    preservedQuestion: JSON.parse(row.preservedQuestion) as McqWithAnswer,
    preservedNoteContent: row.preservedNoteContent,
    realCorrectAnswers: row.realCorrectAnswers,
    createdAt: row.createdAt.toISOString(),
    positiveFeedback: row.positiveFeedback,
  };
}

/**
 * POST /predefined-questions/{id}/suggest-fine-tuning {isPositiveFeedback, comment}: the
 * notebook's editors, and a learner who answered the question in recall (and so was shown its
 * answer) while they may still read the note. The answer (the suggestion) carries the correct
 * index, so nobody else may ask: a reader could read the answer key off it. A positive
 * suggestion records the stored correct index as the real correct answer; a negative one leaves
 * it for the admin to fill in.
 */
/** Whether the user answered this question in one of their recall prompts (the answer page showed its key). */
export async function suggestForFineTuning(
  ctx: AppContext,
  current: CurrentUser,
  questionId: number,
  input: { isPositiveFeedback: boolean; comment?: string | null },
): Promise<SuggestedQuestionJson> {
  const { question, note, notebook } = await loadQuestion(ctx, questionId);
  await authorizeRead(ctx, current, notebook);
  if (
    !mayReadAnswerKeys(await notebookRole(ctx, current, notebook)) &&
    !(await ctx.stores.recallPrompts.answeredInRecall(current.user.id, question.id))
  ) {
    throw new ForbiddenError("Only the notebook's editors, or a learner who answered this question, can suggest it for fine-tuning");
  }
  const preserved: McqWithAnswer = {
    multipleChoicesQuestion: storedQuestion(question),
    correctChoiceIndex: question.correctAnswerIndex,
    strictChoiceOrder: false,
  };
  const [row] = await ctx.stores.fineTuning.insert([
    {
      userId: current.user.id,
      preservedNoteContent: await noteDescription(ctx, current, note),
      preservedQuestion: JSON.stringify(preserved),
      positiveFeedback: input.isPositiveFeedback,
      comment: (input.comment ?? "").trim(),
      realCorrectAnswers: input.isPositiveFeedback ? String(question.correctAnswerIndex) : "",
      createdAt: ctx.clock.now(),
    },
  ]);
  return presentSuggestedQuestion(row!);
}
