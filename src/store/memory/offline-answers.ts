/**
 * An answer given offline, applied in one unit as of the moment it was given (the memory store's
 * `applyOfflineAnswer`; the rules are in src/services/memory/offline-answers.ts). The service
 * judges what it can before (age, policy, the answer against its question); the unit checks what
 * another request may have changed meanwhile (the tracker removed, assimilated again or reviewed
 * later, the question answered) and stores the outcome under the answer's key, applied or not.
 */
import { answerPrompt } from "../recall-prompts/prompts";
import type { Session, Step } from "../session";
import {
  lockedTracker,
  type MemoryTrackerRow,
  type ReviewPlanner,
  recordAnswerKey,
  reviewedAfter,
  reviewTracker,
  storedOutcome,
} from "./trackers";

/** What an answer did, as stored under its key (the statuses of the service's OfflineAnswerStatus). */
export interface OfflineOutcome {
  status: "applied" | "removed" | "out-of-reach" | "reset" | "answered-later" | "too-old" | "refused";
  correct?: boolean;
  reviewedAt?: string;
  message?: string;
}

/** The answer to apply: right or not, the tracker's review, and for a multiple choice its prompt. */
export interface OfflineApplication {
  correct: boolean;
  plan: ReviewPlanner;
  choice?: { promptId: number; choiceIndex: number };
}

/** The service's verdict: an outcome already decided (not applied), or the answer to apply. */
export type OfflineVerdict = { outcome: OfflineOutcome } | { apply: OfflineApplication };

export interface OfflineAnswerKey {
  key: string;
  trackerId: number;
  answeredAt: Date;
  appliedAt: Date;
}

function* applyAt(
  s: Session,
  row: MemoryTrackerRow | undefined,
  userId: number,
  trackerId: number,
  at: Date,
  application: OfflineApplication,
): Step<OfflineOutcome> {
  if (!row || row.userId !== userId || row.removedFromTracking) return { status: "removed" };
  if (row.assimilatedAt.getTime() > at.getTime()) return { status: "reset" };
  if (row.lastRecalledAt.getTime() > at.getTime() || (yield* reviewedAfter(s, trackerId, at))) return { status: "answered-later" };
  if (application.choice) {
    const { promptId, choiceIndex } = application.choice;
    const answered = yield* answerPrompt(s, userId, promptId, { choiceIndex, correct: application.correct, at }, application.plan);
    if (answered.status !== "answered") return { status: "answered-later" };
  } else {
    yield* reviewTracker(s, userId, row, application.plan(row));
  }
  return { status: "applied", correct: application.correct, reviewedAt: at.toISOString() };
}

/** Applies one offline answer (or records the verdict) under its key; a key seen before answers its stored outcome. */
export function* applyOfflineAnswer(s: Session, userId: number, key: OfflineAnswerKey, verdict: OfflineVerdict): Step<OfflineOutcome> {
  // The tracker is locked first: answers of one tracker (and a key sent twice) take turns from here.
  const row = yield* lockedTracker(s, key.trackerId);
  const stored = yield* storedOutcome(s, userId, key.key);
  if (stored !== undefined) return JSON.parse(stored) as OfflineOutcome;
  const outcome = "apply" in verdict ? yield* applyAt(s, row, userId, key.trackerId, key.answeredAt, verdict.apply) : verdict.outcome;
  yield* recordAnswerKey(s, userId, key.trackerId, { key: key.key, answeredAt: key.answeredAt, appliedAt: key.appliedAt, outcome });
  return outcome;
}
