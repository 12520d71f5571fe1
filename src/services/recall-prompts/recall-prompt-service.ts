/**
 * Recall prompts: the multiple-choice question put to a learner for one memory tracker, and
 * their answer.
 */
import { isAiConfigured } from "../../ai/client";
import type { McqWithAnswer } from "../../ai/question-generation";
import type { AppContext } from "../../context";
import type { PromptAnswer } from "../../store/recall-prompts/recall-prompts-store";
import { BadRequestError, NotFoundError, ValidationError } from "../errors";
import { ALREADY_RECORDED, appliedNow, refuseRepeatedKey } from "../memory/answer-keys";
import { planReview, thinkingTime } from "../memory/reviews";
import { ownTracker } from "../memory/trackers";
import { requireNote } from "../notes/rows";
import type { CurrentUser } from "../users";
import { type AnsweredQuestionJson, presentAnsweredQuestion, presentRecallPrompt, type RecallPromptJson } from "./presenters";
import { questionContext } from "./question-context";
import { generateFeasibleQuestion, type QuestionDraft } from "./question-maker";
import { type LoadedPrompt, ownRecallPrompt, type RecallPromptRow, readablePrompt, storedQuestion } from "./rows";

export const ALREADY_ANSWERED = "The question is already answered";

/**
 * GET /recall-prompts/{memoryTracker}/question: the question to ask for the user's own memory
 * tracker. An unanswered, uncontested prompt of that tracker is asked again; otherwise the AI
 * makes one. Null (an empty body: the client shows the simple review) for a spelling or
 * removed tracker, without an AI provider, and whenever generation fails or times out.
 * 404 for an unknown tracker or a deleted note, 403 for someone else's tracker.
 */
export async function askAQuestion(ctx: AppContext, current: CurrentUser, trackerId: number): Promise<RecallPromptJson | null> {
  const tracker = await ownTracker(ctx, current, trackerId);
  const note = await requireNote(ctx, tracker.noteId);
  if (note.deletedAt) throw new NotFoundError("Note");
  if (tracker.spelling || tracker.removedFromTracking) return null;

  const reused = await ctx.stores.recallPrompts.reusablePrompt(current.user.id, tracker.id);
  if (reused) return presentRecallPrompt(ctx, current, await readablePrompt(ctx, current, reused));
  if (!isAiConfigured(ctx)) return null;

  let drafts: QuestionDraft[] | undefined;
  try {
    drafts = await generateFeasibleQuestion(ctx, await questionContext(ctx, note.id, current));
  } catch (error) {
    console.warn(
      `Question generation for memory tracker ${tracker.id} failed, falling back to the simple review:`,
      (error as Error).message,
    );
    return null;
  }
  if (!drafts) return null;

  // A request that ran at the same time may have saved a prompt for this tracker meanwhile: the store answers that one.
  const saved = await ctx.stores.recallPrompts.savePrompt(
    current.user.id,
    tracker.id,
    note.id,
    drafts.map((draft) => generatedQuestion(draft.mcq, draft.contested)),
    ctx.clock.now(),
  );
  return presentRecallPrompt(ctx, current, await readablePrompt(ctx, current, saved));
}

/**
 * GET /recall-prompts/{id}: the answered question, or null (empty body) while it is unanswered.
 * Only the learner it was put to may see it, and only while they may read the note.
 */
export async function showRecallPrompt(ctx: AppContext, current: CurrentUser, promptId: number): Promise<AnsweredQuestionJson | null> {
  const loaded = await ownRecallPrompt(ctx, current, promptId);
  return loaded.prompt.answeredAt ? presentAnsweredQuestion(ctx, current, loaded) : null;
}

/**
 * POST /recall-prompts/{id}/answer {choiceIndex}: in one transaction, checks the prompt is
 * still unanswered, records the answer, and repeats the prompt's memory tracker on the
 * forgetting curve (success = the correct choice) unless it is a spelling tracker or was removed
 * from tracking meanwhile. A second answer (e.g. a retried request) is refused with 400, so
 * nothing counts twice; an index outside the choices is a 400 on choiceIndex. With an
 * idempotency key the answer is also recorded under it (memory/answer-keys.ts).
 */
export async function answerRecallPrompt(
  ctx: AppContext,
  current: CurrentUser,
  promptId: number,
  choiceIndex: number,
  thinkingTimeMs?: unknown,
  idempotencyKey?: string,
): Promise<AnsweredQuestionJson> {
  const thinking = thinkingTime(thinkingTimeMs);
  await refuseRepeatedKey(ctx, current.user.id, idempotencyKey);
  const loaded = await ownRecallPrompt(ctx, current, promptId);
  const now = ctx.clock.now();
  const correct = judgeChoice(loaded, choiceIndex);
  const answer = await ctx.stores.recallPrompts.answerPrompt(
    current.user.id,
    loaded.prompt.id,
    { choiceIndex, correct, at: now },
    planReview(now, current, correct ? "success" : "failure", "multiple-choice", { randomizer: ctx.randomizer, thinkingTimeMs: thinking }),
    appliedNow(idempotencyKey, now, correct),
  );
  return presentAnsweredQuestion(ctx, current, { ...loaded, prompt: answeredPrompt(answer) });
}

/**
 * Whether a choice for a loaded prompt is right: ALREADY_ANSWERED for a prompt answered before, a
 * ValidationError for an index outside the choices.
 */
export function judgeChoice(loaded: LoadedPrompt, choiceIndex: number): boolean {
  if (loaded.prompt.answeredAt) throw new BadRequestError(ALREADY_ANSWERED);
  const { choices } = storedQuestion(loaded.question);
  if (!Number.isInteger(choiceIndex) || choiceIndex < 0 || choiceIndex >= choices.length) {
    throw new ValidationError({ choiceIndex: `must be the index of one of the choices (0 to ${choices.length - 1})` });
  }
  return choiceIndex === loaded.question.correctAnswerIndex;
}

/** The prompt as answered; a key applied before or a prompt answered meanwhile is a 400. */
export function answeredPrompt(answer: PromptAnswer): RecallPromptRow {
  if (answer.status === "already-recorded") throw new BadRequestError(ALREADY_RECORDED);
  if (answer.status === "already-answered") throw new BadRequestError(ALREADY_ANSWERED);
  return answer.prompt;
}

/** A generated question as saved: not approved; contested when the check found it wanting. */
export function generatedQuestion(mcq: McqWithAnswer, contested: boolean) {
  const { stem, choices } = mcq.multipleChoicesQuestion;
  return {
    multipleChoicesQuestion: JSON.stringify({ stem, choices }),
    correctAnswerIndex: mcq.correctChoiceIndex,
    approved: false,
    contested,
  };
}
