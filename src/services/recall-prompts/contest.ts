/**
 * "Doesn't make sense?": the learner contests a question, and asks for a better one when the
 * contest is accepted. Both need the AI provider.
 */
import { aiClient } from "../../ai/client";
import type { AppContext } from "../../context";
import { BadRequestError } from "../errors";
import type { CurrentUser } from "../users";
import type { QuestionContestResult } from "./mcq";
import { presentRecallPrompt, type RecallPromptJson } from "./presenters";
import { questionContext } from "./question-context";
import { evaluateQuestion, generateQuestion } from "./question-maker";
import { ALREADY_ANSWERED, generatedQuestion } from "./recall-prompt-service";
import { type LoadedPrompt, ownRecallPrompt, readablePrompt, storedQuestion } from "./rows";

/** Longest advice passed on to the model when regenerating. */
export const MAX_ADVICE_LENGTH = 10_000;

/** The user's own prompt, still unanswered, with the provider configured (503 otherwise). */
async function contestablePrompt(ctx: AppContext, current: CurrentUser, promptId: number): Promise<LoadedPrompt> {
  const loaded = await ownRecallPrompt(ctx, current, promptId);
  if (loaded.prompt.answeredAt) throw new BadRequestError(ALREADY_ANSWERED);
  aiClient(ctx); // "AI is not configured" before any work
  return loaded;
}

/**
 * POST /recall-prompts/{id}/contest: the evaluation model checks the question. Rejected (the
 * question stands) with the advice to answer it; accepted, the question is marked contested so
 * it is never asked again, and the advice says what is wrong. 503 when the AI is missing or fails.
 */
export async function contestRecallPrompt(ctx: AppContext, current: CurrentUser, promptId: number): Promise<QuestionContestResult> {
  const loaded = await contestablePrompt(ctx, current, promptId);
  const result = await evaluateQuestion(
    ctx,
    await questionContext(ctx, loaded.note.id, current),
    storedQuestion(loaded.question),
    loaded.question.correctAnswerIndex,
  );
  if (!result.rejected) await ctx.stores.recallPrompts.markContested(loaded.prompt.id, loaded.question.id, result.advice);
  return result;
}

/**
 * POST /recall-prompts/{id}/regenerate {advice}: a new question generated from the contested one
 * and the advice (not checked again), asked in a new prompt for the same memory tracker. The old
 * prompt stays unanswered, its question contested. Null (empty body) when the model gives no
 * usable question; 503 when the AI is missing or fails.
 */
export async function regenerateRecallPrompt(
  ctx: AppContext,
  current: CurrentUser,
  promptId: number,
  input: { advice?: string | null },
): Promise<RecallPromptJson | null> {
  const loaded = await contestablePrompt(ctx, current, promptId);
  const advice = (input.advice?.trim() || loaded.prompt.contestAdvice || "").slice(0, MAX_ADVICE_LENGTH);
  const previous = {
    multipleChoicesQuestion: storedQuestion(loaded.question),
    correctChoiceIndex: loaded.question.correctAnswerIndex,
    strictChoiceOrder: false,
  };
  const mcq = await generateQuestion(ctx, await questionContext(ctx, loaded.note.id, current), { question: previous, advice });
  if (!mcq) return null;
  const replaced = await ctx.stores.recallPrompts.replaceContested(
    loaded.prompt,
    loaded.prompt.contestAdvice ?? advice,
    loaded.note.id,
    generatedQuestion(mcq, false),
    ctx.clock.now(),
  );
  return presentRecallPrompt(ctx, current, await readablePrompt(ctx, current, replaced));
}
