/**
 * Making questions with the AI: generate, check, and improve once with the check's advice
 *. Nothing is saved here.
 */
import { askForEvaluation } from "../../ai/question-evaluation";
import { askForQuestion, type McqWithAnswer, type MultipleChoicesQuestion, type QuestionContext } from "../../ai/question-generation";
import type { AppContext } from "../../context";
import { ServiceUnavailableError } from "../errors";
import { contestResult, type QuestionContestResult, shuffleChoices, validEvaluation, validMcq } from "./mcq";

/** The answer of a contest when the evaluation model answered nothing usable. */
export const EVALUATION_FAILED = "The AI could not evaluate the question. Please try again.";

/**
 * A usable question about the note described by `noteContext`, with its choices shuffled; or
 * undefined when the model answered none (e.g. an empty stem for too little information).
 * With `previous`, an improvement of that question following the advice. Throws
 * ServiceUnavailableError when the provider is missing or fails.
 */
export async function generateQuestion(
  ctx: AppContext,
  noteContext: QuestionContext,
  previous?: { question: McqWithAnswer; advice: string },
): Promise<McqWithAnswer | undefined> {
  const mcq = validMcq(await askForQuestion(ctx, noteContext, previous));
  return mcq && shuffleChoices(mcq, ctx.randomizer);
}

/**
 * Has the evaluation model check a question whose correct choice is `correctAnswerIndex`.
 * Throws ServiceUnavailableError when the provider is missing or fails, or answers nothing usable.
 */
export async function evaluateQuestion(
  ctx: AppContext,
  noteContext: QuestionContext,
  question: MultipleChoicesQuestion,
  correctAnswerIndex: number,
): Promise<QuestionContestResult> {
  const evaluation = validEvaluation(await askForEvaluation(ctx, noteContext, question));
  if (!evaluation) throw new ServiceUnavailableError(EVALUATION_FAILED);
  return contestResult(evaluation, question.choices, correctAnswerIndex);
}

/** A question to save: the one to ask is the last; an earlier one is the original the check contested. */
export interface QuestionDraft {
  mcq: McqWithAnswer;
  contested: boolean;
}

/**
 * A question that passed the automatic check, or its improvement (generated once with the
 * check's advice, not checked again); when the improvement fails, the original, contested.
 * Undefined when no question could be generated. Throws when generation or the check fails.
 */
export async function generateFeasibleQuestion(ctx: AppContext, noteContext: QuestionContext): Promise<QuestionDraft[] | undefined> {
  const original = await generateQuestion(ctx, noteContext);
  if (!original) return undefined;
  const check = await evaluateQuestion(ctx, noteContext, original.multipleChoicesQuestion, original.correctChoiceIndex);
  if (check.rejected) return [{ mcq: original, contested: false }];
  const improved = await generateQuestion(ctx, noteContext, { question: original, advice: check.advice }).catch(() => undefined);
  if (!improved) return [{ mcq: original, contested: true }];
  return [
    { mcq: original, contested: true },
    { mcq: improved, contested: false },
  ];
}
