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
import { and, eq, gt, ne } from "drizzle-orm";
import type { AppContext } from "../../context";
import type { DbHandle } from "../../db/connection";
import { memoryTrackers, recallLog, recallPrompts } from "../../db/schema";
import { DomainError, ForbiddenError, NotFoundError, ValidationError } from "../errors";
import { getNote, getNotebook } from "../notes/rows";
import { authorizeOwnRecord, authorizeRecall } from "../policies";
import { applyChoice } from "../recall-prompts/recall-prompt-service";
import { ownRecallPrompt } from "../recall-prompts/rows";
import { applySpelling } from "../spelling/spelling-service";
import type { CurrentUser } from "../users";
import { pruneAnswerKeys, recordAnswerKey, storedOutcome } from "./answer-keys";
import { type MemoryTrackerRow, repeatTracker } from "./trackers";

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
export function applyOfflineAnswers(ctx: AppContext, current: CurrentUser, answers: OfflineAnswer[]): OfflineAnswerOutcome[] {
  if (answers.length > MAX_ANSWERS_PER_SYNC) {
    throw new ValidationError({ answers: `must hold at most ${MAX_ANSWERS_PER_SYNC} answers` });
  }
  ctx.db.transaction((tx) => pruneAnswerKeys(tx, ctx.clock.now()));
  return answers.map((answer) => ctx.db.transaction((tx) => applyOne(tx, ctx, current, answer)));
}

function applyOne(tx: DbHandle, ctx: AppContext, current: CurrentUser, input: OfflineAnswer): OfflineAnswerOutcome {
  const { idempotencyKey, memoryTrackerId } = input;
  const stored = storedOutcome(tx, current.user.id, idempotencyKey);
  if (stored !== undefined)
    return { ...(JSON.parse(stored) as Omit<OfflineAnswerOutcome, "idempotencyKey">), idempotencyKey, memoryTrackerId };

  const now = ctx.clock.now();
  const given = Date.parse(input.answeredAt);
  if (!Number.isFinite(given)) throw new ValidationError({ answeredAt: "must be a date and time (ISO 8601)" });
  const at = new Date(Math.min(given, now.getTime()));
  const outcome = judge(tx, ctx, current, input, at, now);
  recordAnswerKey(tx, { userId: current.user.id, key: idempotencyKey, memoryTrackerId, answeredAt: at, appliedAt: now, outcome });
  return { ...outcome, idempotencyKey, memoryTrackerId };
}

type Judged = Omit<OfflineAnswerOutcome, "idempotencyKey" | "memoryTrackerId">;

function judge(tx: DbHandle, ctx: AppContext, current: CurrentUser, input: OfflineAnswer, at: Date, now: Date): Judged {
  if (now.getTime() - at.getTime() > MAX_AGE_DAYS * DAY_MS) return { status: "too-old" };
  let tracker: MemoryTrackerRow;
  try {
    tracker = recallableTracker(ctx, current, input.memoryTrackerId);
  } catch (error) {
    if (error instanceof NotFoundError) return { status: "removed" };
    if (error instanceof ForbiddenError) return { status: "out-of-reach" };
    throw error;
  }
  if (tracker.removedFromTracking) return { status: "removed" };
  if (tracker.assimilatedAt.getTime() > at.getTime()) return { status: "reset" };
  if (reviewedAfter(tx, tracker, at)) return { status: "answered-later" };

  const thinking = input.thinkingTimeMs ?? null;
  const { answer } = input;
  try {
    return withSavepoint(ctx, () => applyAnswer(tx, ctx, current, tracker, answer, at, thinking));
  } catch (error) {
    // A question gone or no longer readable goes with its tracker; a mismatch is refused, in words.
    if (error instanceof NotFoundError) return { status: "removed" };
    if (error instanceof ForbiddenError) return { status: "out-of-reach" };
    if (error instanceof ValidationError) return { status: "refused", message: Object.values(error.errors).join("; ") };
    if (error instanceof DomainError) return { status: "refused", message: error.message };
    throw error;
  }
}

/** Runs `apply` inside a savepoint of the transaction: an answer refused half-way leaves nothing behind. */
function withSavepoint<T>(ctx: AppContext, apply: () => T): T {
  ctx.sqlite.run("SAVEPOINT offline_answer");
  try {
    const result = apply();
    ctx.sqlite.run("RELEASE offline_answer");
    return result;
  } catch (error) {
    ctx.sqlite.run("ROLLBACK TO offline_answer");
    ctx.sqlite.run("RELEASE offline_answer");
    throw error;
  }
}

function applyAnswer(
  tx: DbHandle,
  ctx: AppContext,
  current: CurrentUser,
  tracker: MemoryTrackerRow,
  answer: OfflineAnswerInput,
  at: Date,
  thinking: number | null,
): Judged {
  const applied = (correct: boolean): Judged => ({ status: "applied", correct, reviewedAt: at.toISOString() });
  switch (answer.type) {
    case "self-review":
      repeatTracker(tx, at, current, tracker, answer.successful, "self-review", ctx.randomizer, thinking);
      return applied(answer.successful);
    case "spelling":
      return applied(applySpelling(tx, ctx, current, tracker, answer.spellingAnswer, at, thinking).isCorrect);
    case "multiple-choice": {
      const loaded = ownRecallPrompt(ctx, current, answer.recallPromptId);
      if (loaded.prompt.memoryTrackerId !== tracker.id || tracker.spelling) {
        return { status: "refused", message: "This question is not about this memory tracker" };
      }
      if (loaded.prompt.answeredAt) return { status: "answered-later" };
      return applied(applyChoice(tx, ctx, current, loaded, answer.choiceIndex, at, thinking).answerCorrect === true);
    }
  }
}

/** The user's own tracker, on an undeleted note of a notebook the policy still lets them recall (404/403 otherwise). */
function recallableTracker(ctx: AppContext, current: CurrentUser, trackerId: number): MemoryTrackerRow {
  const row = ctx.db.select().from(memoryTrackers).where(eq(memoryTrackers.id, trackerId)).get();
  if (!row) throw new NotFoundError("Memory tracker");
  authorizeOwnRecord(current, row.userId, "memory tracker");
  const note = getNote(ctx, row.noteId);
  if (note.deletedAt) throw new NotFoundError("Note");
  authorizeRecall(ctx, current, getNotebook(ctx, note.notebookId));
  return row;
}

/** Whether anything moved the tracker's schedule after `at`: a logged review, or a recall time past it. */
function reviewedAfter(tx: DbHandle, tracker: MemoryTrackerRow, at: Date): boolean {
  if (tracker.lastRecalledAt.getTime() > at.getTime()) return true;
  const later = tx
    .select({ id: recallLog.id })
    .from(recallLog)
    .where(and(eq(recallLog.memoryTrackerId, tracker.id), gt(recallLog.reviewedAt, at), ne(recallLog.kind, "assimilation")))
    .limit(1)
    .get();
  if (later) return true;
  // A question of this tracker answered after `at` (its review is logged too, but be sure).
  return !!tx
    .select({ id: recallPrompts.id })
    .from(recallPrompts)
    .where(and(eq(recallPrompts.memoryTrackerId, tracker.id), gt(recallPrompts.answeredAt, at)))
    .limit(1)
    .get();
}
