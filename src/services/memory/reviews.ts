/**
 * Every change of a tracker's schedule by a review goes through here: the user's scheduler
 * computes the new state and its recall_log row (planReview), and the memory store writes both in
 * the review's unit of work, so the log and the trackers never disagree.
 */
import type { MemoryTrackerRow, NewRecallLogRow, PlannedReview, ReviewPlanner } from "../../store/memory/trackers";
import { ValidationError } from "../errors";
import type { Randomizer } from "../randomizer";
import { markAsRepeated, newSchedule, parseSpaceIntervals, selfEvaluated } from "../scheduling/forgetting-curve";
import {
  type FsrsSchedule,
  type FsrsSettings,
  fsrsAssimilated,
  fsrsReviewed,
  type ReviewOutcome,
  type SchedulerName,
} from "../scheduling/fsrs";
import type { CurrentUser, UserRow } from "../user-rows";

export type { MemoryTrackerRow } from "../../store/memory/trackers";

/** "anki": a review made in Anki, carried over by an Anki import. */
export type ReviewKind = "assimilation" | "multiple-choice" | "spelling" | "self-review" | "self-evaluation" | "anki";
export const REVIEW_KINDS: readonly ReviewKind[] = [
  "assimilation",
  "multiple-choice",
  "spelling",
  "self-review",
  "self-evaluation",
  "anki",
];

const HOUR_MS = 3_600_000;

export const schedulerOf = (user: UserRow): SchedulerName => (user.scheduler === "fsrs" ? "fsrs" : "forgetting-curve");

export function fsrsSettingsOf(user: UserRow): FsrsSettings {
  return {
    desiredRetention: user.desiredRetention,
    maximumIntervalDays: user.maximumIntervalDays,
    weights: parseWeights(user.fsrsWeights),
    spaceIntervals: parseSpaceIntervals(user.spaceIntervals),
  };
}

export function parseWeights(text: string | null): number[] | null {
  if (!text) return null;
  try {
    const weights = JSON.parse(text);
    return Array.isArray(weights) && weights.every((w) => typeof w === "number" && Number.isFinite(w)) ? weights : null;
  } catch {
    return null;
  }
}

/** Milliseconds from showing a question to its answer, as the browser measured it (optional). */
export const MAX_THINKING_TIME_MS = 86_400_000;
export function thinkingTime(value: unknown): number | null {
  if (value === undefined || value === null || value === "") return null;
  const ms = typeof value === "string" ? Number(value) : value;
  if (typeof ms !== "number" || !Number.isInteger(ms) || ms < 0 || ms > MAX_THINKING_TIME_MS) {
    throw new ValidationError({ thinkingTimeMs: `must be a whole number of milliseconds from 0 to ${MAX_THINKING_TIME_MS}` });
  }
  return ms;
}

/** The fuzz draw: none while tests fix the randomizer (first/last), so schedules are exact there. */
export function fuzzDraw(randomizer?: Randomizer): number | null {
  if (!randomizer || randomizer.mode === "first" || randomizer.mode === "last") return null;
  return randomizer.next();
}

/** The scheduling state written to the log (stability in hours, as the API shows it). */
export function stateJson(scheduler: SchedulerName, state: FsrsSchedule) {
  return {
    scheduler,
    forgettingCurveIndex: state.forgettingCurveIndex,
    lastRecalledAt: state.lastRecalledAt.toISOString(),
    nextRecallAt: state.nextRecallAt.toISOString(),
    repetitionCount: state.repetitionCount,
    ...(state.stability !== null ? { stability: round(state.stability * 24), difficulty: round(state.difficulty ?? 0) } : {}),
  };
}

const round = (value: number) => Math.round(value * 1000) / 1000;

/** The schedule a newly assimilated tracker starts with under the user's scheduler. */
export function assimilationSchedule(current: CurrentUser, now: Date, randomizer?: Randomizer): FsrsSchedule {
  if (schedulerOf(current.user) === "fsrs") return fsrsAssimilated(fsrsSettingsOf(current.user), now, fuzzDraw(randomizer));
  return { ...newSchedule(parseSpaceIntervals(current.user.spaceIntervals), now), stability: null, difficulty: null };
}

/** The state an assimilation's log row shows, under the user's scheduler. */
export function assimilationState(current: CurrentUser): (row: MemoryTrackerRow) => string {
  const scheduler = schedulerOf(current.user);
  return (row) => JSON.stringify(stateJson(scheduler, row));
}

/** A review made in another app, as it happened (see importedReviewRows). */
export interface ImportedReview {
  at: Date;
  success: boolean;
  thinkingTimeMs: number | null;
  /** The interval planned before it, and the one it chose, in days. */
  scheduledDays: number;
  intervalDays: number;
}

/**
 * The recall-log rows of reviews made in another app (an Anki deck's revlog) for a freshly
 * inserted tracker, as they happened, oldest first, after its assimilation at `assimilatedAt`:
 * they count in the statistics and in FSRS fitting like reviews made here. Their state is the
 * other app's interval, as `{scheduler: "anki", intervalDays}`.
 */
export function importedReviewRows(
  userId: number,
  trackerId: number,
  kind: "anki",
  assimilatedAt: Date,
  reviews: ImportedReview[],
): NewRecallLogRow[] {
  return reviews.map((review, i) => ({
    memoryTrackerId: trackerId,
    userId,
    reviewedAt: review.at,
    kind,
    outcome: review.success ? "success" : "failure",
    thinkingTimeMs: review.thinkingTimeMs,
    scheduledHours: review.scheduledDays > 0 ? Math.round(review.scheduledDays * 24 * 100) / 100 : null,
    elapsedHours: hoursBetween(i > 0 ? reviews[i - 1]!.at : assimilatedAt, review.at),
    stateAfter: JSON.stringify({ scheduler: kind, intervalDays: Math.round(review.intervalDays * 1000) / 1000 }),
  }));
}

/**
 * Plans a review at `now` with the user's scheduler: from the tracker as the unit of work reads
 * it, its new schedule and log row. `outcome` is success/failure, or a self-evaluation's signed
 * adjustment ("+5", "-5"; the classic scheduler takes any adjustment, FSRS grades a positive one
 * Easy and a negative one Hard).
 */
export function planReview(
  now: Date,
  current: CurrentUser,
  outcome: ReviewOutcome | `${"+" | "-"}${number}`,
  kind: ReviewKind,
  options: { randomizer?: Randomizer; thinkingTimeMs?: number | null } = {},
): ReviewPlanner {
  return (tracker) => {
    const scheduler = schedulerOf(current.user);
    const before: FsrsSchedule = tracker;
    let after: FsrsSchedule;
    const adjustment = outcome === "success" || outcome === "failure" ? null : Number(outcome);
    if (scheduler === "fsrs") {
      const fsrsOutcome: ReviewOutcome =
        adjustment === null ? (outcome as ReviewOutcome) : adjustment > 0 ? "+5" : adjustment < 0 ? "-5" : "success";
      after = fsrsReviewed(before, fsrsOutcome, now, fsrsSettingsOf(current.user), fuzzDraw(options.randomizer));
    } else {
      const intervals = parseSpaceIntervals(current.user.spaceIntervals);
      const next =
        adjustment === null
          ? markAsRepeated(intervals, tracker, now, outcome === "success")
          : selfEvaluated(intervals, tracker, adjustment);
      after = { ...next, stability: null, difficulty: null };
    }
    const schedule = {
      forgettingCurveIndex: after.forgettingCurveIndex,
      lastRecalledAt: after.lastRecalledAt,
      nextRecallAt: after.nextRecallAt,
      repetitionCount: after.repetitionCount,
      stability: after.stability,
      difficulty: after.difficulty,
    };
    const planned: PlannedReview = {
      schedule,
      log: {
        reviewedAt: now,
        kind,
        outcome: adjustment === null ? outcome : `${adjustment >= 0 ? "+" : ""}${adjustment}`,
        thinkingTimeMs: options.thinkingTimeMs ?? null,
        scheduledHours: hoursBetween(before.lastRecalledAt, before.nextRecallAt),
        elapsedHours: hoursBetween(before.lastRecalledAt, now),
        stateBefore: JSON.stringify(stateJson(scheduler, before)),
        stateAfter: JSON.stringify(stateJson(scheduler, schedule)),
      },
    };
    return planned;
  };
}

const hoursBetween = (from: Date, to: Date) => Math.round(((to.getTime() - from.getTime()) / HOUR_MS) * 100) / 100;
