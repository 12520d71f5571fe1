/**
 * Answers given offline, sent later in the order they were given (POST /api/recalls/offline-answers).
 *
 * Each answer is applied in its own transaction **as of the moment it was given**: both
 * schedulers are functions of (state, outcome, now), so the moment is their `now`. The forgetting
 * curve measures how early or late the recall was against the planned time and schedules the next
 * one from that moment; FSRS counts the days elapsed since the last review up to that moment and
 * schedules from it. The review log shows that moment, the tracker's lastRecalledAt becomes it.
 *
 * That is only true while nothing happened to the tracker after that moment. So an answer is not
 * applied, and its outcome says why, when:
 *  - its tracker is gone or removed from review, or its note deleted ("removed");
 *  - the learner may no longer recall it at sync time, by the one policy ("out-of-reach");
 *  - the tracker was assimilated again after it ("reset");
 *  - the tracker has a review logged after it, e.g. answered later on another device, or its
 *    question was answered already ("answered-later"): replaying history is not attempted;
 *  - it is older than MAX_AGE_DAYS ("too-old"): a device that was offline that long more likely
 *    has a wrong clock than a month-old answer, and the memory state it measured is stale;
 *  - it does not fit its tracker (a spelling for a normal tracker, a choice outside the
 *    question's, another tracker's question) ("refused").
 * A moment in the future (a device clock ahead) is taken as the server's now.
 *
 * Every outcome, applied or not, is stored under the answer's idempotency key, so a retry or a
 * second tab gets the same outcome and nothing counts twice (memory/answer-keys.ts).
 */
import type { AppContext } from "../../context";
import type { OfflineOutcome, OfflineVerdict } from "../../store/memory/offline-answers";
import { DomainError, ForbiddenError, NotFoundError, ValidationError } from "../errors";
import { requireNoteWithNotebook } from "../notes/rows";
import { authorizeOwnRecord, authorizeRecall } from "../policies";
import { judgeChoice } from "../recall-prompts/recall-prompt-service";
import { ownRecallPrompt } from "../recall-prompts/rows";
import { judgeSpelling } from "../spelling/spelling-service";
import type { CurrentUser } from "../users";
import { ANSWER_KEY_RETENTION_MS } from "./answer-keys";
import { planReview } from "./reviews";
import type { MemoryTrackerRow } from "./trackers";

export const MAX_ANSWERS_PER_SYNC = 100;
export const MAX_AGE_DAYS = 30;
export const MAX_SPELLING_ANSWER_LENGTH = 1000;
const DAY_MS = 86_400_000;

export type OfflineAnswerInput =
  | { type: "self-review"; successful: boolean }
  | { type: "spelling"; spellingAnswer: string }
  | { type: "multiple-choice"; recallPromptId: number; choiceIndex: number };

export interface OfflineAnswer {
  idempotencyKey: string;
  memoryTrackerId: number;
  /** ISO 8601, as the device's clock gave it. */
  answeredAt: string;
  thinkingTimeMs?: number | null;
  answer: OfflineAnswerInput;
}

export type OfflineAnswerStatus = "applied" | "removed" | "out-of-reach" | "reset" | "answered-later" | "too-old" | "refused";

export interface OfflineAnswerOutcome {
  idempotencyKey: string;
  memoryTrackerId: number;
  status: OfflineAnswerStatus;
  /** Applied: whether the answer counted as right, and the moment it was scheduled as of. */
  correct?: boolean;
  reviewedAt?: string;
  /** Refused: why, in words. */
  message?: string;
}

/** Applies a batch in order; answers the outcome of each, in the same order. */
export async function applyOfflineAnswers(
  ctx: AppContext,
  current: CurrentUser,
  answers: OfflineAnswer[],
): Promise<OfflineAnswerOutcome[]> {
  if (answers.length > MAX_ANSWERS_PER_SYNC) {
    throw new ValidationError({ answers: `must hold at most ${MAX_ANSWERS_PER_SYNC} answers` });
  }
  await ctx.stores.memory.pruneAnswerKeys(new Date(ctx.clock.now().getTime() - ANSWER_KEY_RETENTION_MS));
  const outcomes: OfflineAnswerOutcome[] = [];
  for (const answer of answers) outcomes.push(await applyOne(ctx, current, answer));
  return outcomes;
}

async function applyOne(ctx: AppContext, current: CurrentUser, input: OfflineAnswer): Promise<OfflineAnswerOutcome> {
  const { idempotencyKey, memoryTrackerId } = input;
  const stored = await ctx.stores.memory.storedOutcome(current.user.id, idempotencyKey);
  if (stored !== undefined)
    return { ...(JSON.parse(stored) as Omit<OfflineAnswerOutcome, "idempotencyKey">), idempotencyKey, memoryTrackerId };

  const now = ctx.clock.now();
  const given = Date.parse(input.answeredAt);
  if (!Number.isFinite(given)) throw new ValidationError({ answeredAt: "must be a date and time (ISO 8601)" });
  const at = new Date(Math.min(given, now.getTime()));
  const verdict = await judge(ctx, current, input, at, now);
  // The store checks again what may have changed since (and stores the outcome under the key).
  const outcome = await ctx.stores.memory.applyOfflineAnswer(
    current.user.id,
    { key: idempotencyKey, trackerId: memoryTrackerId, answeredAt: at, appliedAt: now },
    verdict,
  );
  return { ...outcome, idempotencyKey, memoryTrackerId };
}

const decided = (outcome: OfflineOutcome): OfflineVerdict => ({ outcome });

/** What can be decided before the answer's unit of work: its age, the policy, the answer against its question. */
async function judge(ctx: AppContext, current: CurrentUser, input: OfflineAnswer, at: Date, now: Date): Promise<OfflineVerdict> {
  if (now.getTime() - at.getTime() > MAX_AGE_DAYS * DAY_MS) return decided({ status: "too-old" });
  let tracker: MemoryTrackerRow;
  try {
    tracker = await recallableTracker(ctx, current, input.memoryTrackerId);
  } catch (error) {
    if (error instanceof NotFoundError) return decided({ status: "removed" });
    if (error instanceof ForbiddenError) return decided({ status: "out-of-reach" });
    throw error;
  }
  if (tracker.removedFromTracking) return decided({ status: "removed" });
  if (tracker.assimilatedAt.getTime() > at.getTime()) return decided({ status: "reset" });

  const thinking = input.thinkingTimeMs ?? null;
  const { answer } = input;
  const plan = (correct: boolean, kind: "self-review" | "spelling" | "multiple-choice") =>
    planReview(at, current, correct ? "success" : "failure", kind, { randomizer: ctx.randomizer, thinkingTimeMs: thinking });
  try {
    switch (answer.type) {
      case "self-review":
        return { apply: { correct: answer.successful, plan: plan(answer.successful, "self-review") } };
      case "spelling": {
        const { isCorrect } = await judgeSpelling(ctx, tracker, answer.spellingAnswer);
        return { apply: { correct: isCorrect, plan: plan(isCorrect, "spelling") } };
      }
      case "multiple-choice": {
        const loaded = await ownRecallPrompt(ctx, current, answer.recallPromptId);
        if (loaded.prompt.memoryTrackerId !== tracker.id || tracker.spelling) {
          return decided({ status: "refused", message: "This question is not about this memory tracker" });
        }
        if (loaded.prompt.answeredAt) return decided({ status: "answered-later" });
        const correct = judgeChoice(loaded, answer.choiceIndex);
        return {
          apply: {
            correct,
            plan: plan(correct, "multiple-choice"),
            choice: { promptId: loaded.prompt.id, choiceIndex: answer.choiceIndex },
          },
        };
      }
    }
  } catch (error) {
    // A question gone or no longer readable goes with its tracker; a mismatch is refused, in words.
    if (error instanceof NotFoundError) return decided({ status: "removed" });
    if (error instanceof ForbiddenError) return decided({ status: "out-of-reach" });
    if (error instanceof ValidationError) return decided({ status: "refused", message: Object.values(error.errors).join("; ") });
    if (error instanceof DomainError) return decided({ status: "refused", message: error.message });
    throw error;
  }
}

/** The user's own tracker, on an undeleted note of a notebook the policy still lets them recall (404/403 otherwise). */
async function recallableTracker(ctx: AppContext, current: CurrentUser, trackerId: number): Promise<MemoryTrackerRow> {
  const row = await ctx.stores.memory.tracker(trackerId);
  if (!row) throw new NotFoundError("Memory tracker");
  authorizeOwnRecord(current, row.userId, "memory tracker");
  const { note, notebook } = await requireNoteWithNotebook(ctx, row.noteId);
  if (note.deletedAt) throw new NotFoundError("Note");
  await authorizeRecall(ctx, current, notebook);
  return row;
}
