/**
 * Recall prompts: the multiple-choice question put to a learner for one memory tracker, and
 * their answer.
 */
import { and, eq, isNull } from "drizzle-orm";
import { isAiConfigured } from "../../ai/client";
import type { AppContext } from "../../context";
import type { DbHandle } from "../../db/connection";
import { memoryTrackers, recallPrompts } from "../../db/schema";
import { BadRequestError, NotFoundError, ValidationError } from "../errors";
import { recordAnswerKey, refuseRepeatedKey } from "../memory/answer-keys";
import { thinkingTime } from "../memory/reviews";
import { ownTracker, repeatTracker } from "../memory/trackers";
import { getNote } from "../notes/rows";
import type { CurrentUser } from "../users";
import { type AnsweredQuestionJson, presentAnsweredQuestion, presentRecallPrompt, type RecallPromptJson } from "./presenters";
import { questionContext } from "./question-context";
import { generateFeasibleQuestion, type QuestionDraft } from "./question-maker";
import {
  insertPrompt,
  insertQuestion,
  type LoadedPrompt,
  loadPrompt,
  ownRecallPrompt,
  type RecallPromptRow,
  reusablePrompt,
  storedQuestion,
} from "./rows";

export const ALREADY_ANSWERED = "The question is already answered";

/**
 * GET /recall-prompts/{memoryTracker}/question: the question to ask for the user's own memory
 * tracker. An unanswered, uncontested prompt of that tracker is asked again; otherwise the AI
 * makes one. Null (an empty body: the client shows the simple review) for a spelling or
 * removed tracker, without an AI provider, and whenever generation fails or times out.
 * 404 for an unknown tracker or a deleted note, 403 for someone else's tracker.
 */
export async function askAQuestion(ctx: AppContext, current: CurrentUser, trackerId: number): Promise<RecallPromptJson | null> {
  const tracker = ownTracker(ctx, current, trackerId);
  const note = getNote(ctx, tracker.noteId);
  if (note.deletedAt) throw new NotFoundError("Note");
  if (tracker.spelling || tracker.removedFromTracking) return null;

  const reused = reusablePrompt(ctx, current.user.id, tracker.id);
  if (reused) return presentRecallPrompt(ctx, current, loadPrompt(ctx, current, reused));
  if (!isAiConfigured(ctx)) return null;

  let drafts: QuestionDraft[] | undefined;
  try {
    drafts = await generateFeasibleQuestion(ctx, questionContext(ctx, note.id, current));
  } catch (error) {
    console.warn(
      `Question generation for memory tracker ${tracker.id} failed, falling back to the simple review:`,
      (error as Error).message,
    );
    return null;
  }
  if (!drafts) return null;

  const prompt = ctx.db.transaction((tx) => {
    // A request that ran at the same time may have saved a prompt for this tracker meanwhile.
    const concurrent = reusablePrompt(ctx, current.user.id, tracker.id);
    if (concurrent) return concurrent;
    const questions = drafts.map((draft) => insertQuestion(tx, ctx.clock.now(), note.id, draft.mcq, draft.contested));
    return insertPrompt(tx, ctx.clock.now(), current.user.id, tracker.id, questions.at(-1)!.id);
  });
  return presentRecallPrompt(ctx, current, loadPrompt(ctx, current, prompt));
}

/**
 * GET /recall-prompts/{id}: the answered question, or null (empty body) while it is unanswered.
 * Only the learner it was put to may see it, and only while they may read the note.
 */
export function showRecallPrompt(ctx: AppContext, current: CurrentUser, promptId: number): AnsweredQuestionJson | null {
  const loaded = ownRecallPrompt(ctx, current, promptId);
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
export function answerRecallPrompt(
  ctx: AppContext,
  current: CurrentUser,
  promptId: number,
  choiceIndex: number,
  thinkingTimeMs?: unknown,
  idempotencyKey?: string,
): AnsweredQuestionJson {
  const thinking = thinkingTime(thinkingTimeMs);
  return ctx.db.transaction((tx) => {
    refuseRepeatedKey(tx, current.user.id, idempotencyKey);
    const loaded = ownRecallPrompt(ctx, current, promptId);
    const now = ctx.clock.now();
    const answered = applyChoice(tx, ctx, current, loaded, choiceIndex, now, thinking);
    if (idempotencyKey !== undefined) {
      recordAnswerKey(tx, {
        userId: current.user.id,
        key: idempotencyKey,
        memoryTrackerId: answered.memoryTrackerId,
        answeredAt: now,
        appliedAt: now,
        outcome: { status: "applied", correct: answered.answerCorrect === true, reviewedAt: now.toISOString() },
      });
    }
    return presentAnsweredQuestion(ctx, current, { ...loaded, prompt: answered });
  });
}

/**
 * Answers a loaded prompt as given at `at`, inside the caller's transaction: the prompt's answer
 * and the repetition of its tracker (see answerRecallPrompt). Throws ALREADY_ANSWERED for a
 * prompt answered before, a ValidationError for an index outside the choices.
 */
export function applyChoice(
  tx: DbHandle,
  ctx: AppContext,
  current: CurrentUser,
  loaded: LoadedPrompt,
  choiceIndex: number,
  at: Date,
  thinking: number | null,
): RecallPromptRow {
  if (loaded.prompt.answeredAt) throw new BadRequestError(ALREADY_ANSWERED);
  const { choices } = storedQuestion(loaded.question);
  if (!Number.isInteger(choiceIndex) || choiceIndex < 0 || choiceIndex >= choices.length) {
    throw new ValidationError({ choiceIndex: `must be the index of one of the choices (0 to ${choices.length - 1})` });
  }
  const correct = choiceIndex === loaded.question.correctAnswerIndex;
  const answered = tx
    .update(recallPrompts)
    .set({ answerChoiceIndex: choiceIndex, answerCorrect: correct, answeredAt: at })
    .where(and(eq(recallPrompts.id, loaded.prompt.id), isNull(recallPrompts.answeredAt)))
    .returning()
    .get();
  if (!answered) throw new BadRequestError(ALREADY_ANSWERED);

  const tracker = tx
    .select()
    .from(memoryTrackers)
    .where(
      and(
        eq(memoryTrackers.id, answered.memoryTrackerId),
        eq(memoryTrackers.userId, current.user.id),
        eq(memoryTrackers.spelling, false),
        eq(memoryTrackers.removedFromTracking, false),
      ),
    )
    .get();
  if (tracker) repeatTracker(tx, at, current, tracker, correct, "multiple-choice", ctx.randomizer, thinking);
  return answered;
}
