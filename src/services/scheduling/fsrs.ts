/**
 * FSRS-6 as Engram's optional scheduler: a small pure adapter around ts-fsrs's memory
 * model, shaped like the forgetting-curve module: (state, outcome, now, settings) → new state.
 * No database, clock or randomness here (the caller passes the fuzz draw, or null for none).
 *
 * Choices (the reference's ADR 0003): whole hours, no learning steps (ts-fsrs's short-term
 * model is off), and the interval for the desired retention capped by the maximum interval.
 * Grades: a wrong answer or "No, I need more repetition" → Again; a right answer → Good;
 * self-evaluation +5 → Easy, −5 → Hard; assimilation is the first review (Good).
 */
import { computeDecayFactor, default_w, FSRSAlgorithm, forgetting_curve, type Grade, get_fuzz_range, Rating } from "ts-fsrs";
import { DEFAULT_FORGETTING_CURVE_INDEX, FORGETTING_CURVE_INDEX_INCREMENT, repeatInHours, type TrackerSchedule } from "./forgetting-curve";

export type SchedulerName = "forgetting-curve" | "fsrs";
export const SCHEDULERS: readonly SchedulerName[] = ["forgetting-curve", "fsrs"];
/** What a review said about the learner's memory. */
export type ReviewOutcome = "success" | "failure" | "+5" | "-5";

export const DEFAULT_DESIRED_RETENTION = 0.9;
export const MIN_DESIRED_RETENTION = 0.7;
export const MAX_DESIRED_RETENTION = 0.97;
export const DEFAULT_MAXIMUM_INTERVAL_DAYS = 36_500;
export const DEFAULT_WEIGHTS: readonly number[] = default_w;

export interface FsrsSettings {
  desiredRetention: number;
  maximumIntervalDays: number;
  /** Fitted weights (21 numbers); null or absent means FSRS-6's defaults. */
  weights?: readonly number[] | null;
  /** The user's space intervals: used only to derive a meaningful forgettingCurveIndex. */
  spaceIntervals: number[];
}

/** A tracker's schedule plus its FSRS memory state (stability in days, difficulty 1..10). */
export interface FsrsSchedule extends TrackerSchedule {
  stability: number | null;
  difficulty: number | null;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const addHours = (date: Date, hours: number) => new Date(date.getTime() + hours * HOUR_MS);
/** The highest index the derived forgettingCurveIndex looks at (about 60 places of the table). */
const MAX_DERIVED_INDEX = DEFAULT_FORGETTING_CURVE_INDEX + 60 * FORGETTING_CURVE_INDEX_INCREMENT;

export function gradeOf(outcome: ReviewOutcome | "assimilation"): Grade {
  switch (outcome) {
    case "failure":
      return Rating.Again;
    case "-5":
      return Rating.Hard;
    case "+5":
      return Rating.Easy;
    default:
      return Rating.Good;
  }
}

const algorithms = new Map<string, FSRSAlgorithm>();
/** ts-fsrs's algorithm for these settings (cached: building one validates and clips the weights). */
export function algorithmFor(settings: Pick<FsrsSettings, "desiredRetention" | "maximumIntervalDays" | "weights">): FSRSAlgorithm {
  const w = settings.weights ?? DEFAULT_WEIGHTS;
  const key = `${settings.desiredRetention}|${settings.maximumIntervalDays}|${w.join(",")}`;
  let algorithm = algorithms.get(key);
  if (!algorithm) {
    algorithm = new FSRSAlgorithm({
      w: [...w],
      request_retention: settings.desiredRetention,
      maximum_interval: settings.maximumIntervalDays,
      enable_short_term: false,
      enable_fuzz: false,
    });
    if (algorithms.size > 200) algorithms.clear();
    algorithms.set(key, algorithm);
  }
  return algorithm;
}

/**
 * Whole hours until the next review for a stability: the time at which recall probability falls
 * to the desired retention, at least 1 hour, at most the maximum interval. With a fuzz draw in
 * [0, 1) an interval of 2.5 days or more is spread over ts-fsrs's fuzz range (in hours).
 */
export function intervalHoursFor(settings: FsrsSettings, stability: number, elapsedDays = 0, fuzz: number | null = null): number {
  const algorithm = algorithmFor(settings);
  const maxHours = settings.maximumIntervalDays * 24;
  const hours = Math.min(Math.max(1, Math.round(stability * algorithm.interval_modifier * 24)), maxHours);
  if (fuzz === null || hours < 60) return hours;
  const { min_ivl, max_ivl } = get_fuzz_range(hours / 24, elapsedDays, settings.maximumIntervalDays);
  const [low, high] = [Math.round(min_ivl * 24), Math.round(max_ivl * 24)];
  return Math.min(Math.floor(fuzz * (high - low + 1) + low), maxHours);
}

/**
 * The elapsed time, as a multiple of the stability, at which recall probability falls to `bound`
 * on FSRS-6's curve R = (1 + factor·t/S)^decay. R falls as t/S grows, so "R below the bound" is
 * "t/S above this ratio" (the statistics count trackers by it without a power per tracker).
 */
export function elapsedRatioAt(settings: Pick<FsrsSettings, "weights">, bound: number): number {
  const { decay, factor } = computeDecayFactor([...(settings.weights ?? DEFAULT_WEIGHTS)]);
  return (bound ** (1 / decay) - 1) / factor;
}

/** Recall probability after `elapsedDays` for a stability (FSRS-6's power forgetting curve). */
export function retrievability(settings: Pick<FsrsSettings, "weights">, elapsedDays: number, stability: number): number {
  return forgetting_curve([...(settings.weights ?? DEFAULT_WEIGHTS)], Math.max(0, elapsedDays), stability);
}

/**
 * The forgetting-curve index whose classic interval first reaches `hours` (the smallest such
 * index from 100), so the API's forgettingCurveIndex stays meaningful for FSRS trackers and
 * switching back to the classic scheduler keeps the interval.
 */
export function indexForHours(intervals: number[], hours: number): number {
  let [low, high] = [DEFAULT_FORGETTING_CURVE_INDEX, MAX_DERIVED_INDEX];
  if (hours <= repeatInHours(intervals, low)) return low;
  if (repeatInHours(intervals, high) < hours) return high;
  while (high - low > 1) {
    const middle = (low + high) >> 1;
    if (repeatInHours(intervals, middle) >= hours) high = middle;
    else low = middle;
  }
  return high;
}

/** A freshly assimilated tracker: assimilation is the first review, graded Good. */
export function fsrsAssimilated(settings: FsrsSettings, now: Date, fuzz: number | null = null): FsrsSchedule {
  const { stability, difficulty } = algorithmFor(settings).next_state(null, 0, Rating.Good);
  const hours = intervalHoursFor(settings, stability, 0, fuzz);
  return {
    forgettingCurveIndex: indexForHours(settings.spaceIntervals, hours),
    lastRecalledAt: now,
    nextRecallAt: addHours(now, hours),
    repetitionCount: 0,
    stability,
    difficulty,
  };
}

/**
 * One review at `now`. Every review (also a failure and a self-evaluation) is a review for FSRS,
 * so lastRecalledAt moves to now; self-evaluation does not count as a repetition, as in the
 * classic scheduler. A tracker without FSRS state is converted first (see toFsrs).
 */
export function fsrsReviewed(
  state: FsrsSchedule,
  outcome: ReviewOutcome,
  now: Date,
  settings: FsrsSettings,
  fuzz: number | null = null,
): FsrsSchedule {
  const memory =
    state.stability !== null && state.difficulty !== null
      ? { stability: state.stability, difficulty: state.difficulty }
      : toFsrs(state, settings);
  const elapsedDays = Math.max(0, (now.getTime() - state.lastRecalledAt.getTime()) / DAY_MS);
  const next = algorithmFor(settings).next_state(memory, elapsedDays, gradeOf(outcome));
  const hours = intervalHoursFor(settings, next.stability, elapsedDays, fuzz);
  const selfEvaluation = outcome === "+5" || outcome === "-5";
  return {
    forgettingCurveIndex: indexForHours(settings.spaceIntervals, hours),
    lastRecalledAt: now,
    nextRecallAt: addHours(now, hours),
    repetitionCount: state.repetitionCount + (selfEvaluation ? 0 : 1),
    stability: next.stability,
    difficulty: next.difficulty,
  };
}

/** Logged recalls of one tracker, when there are any (they beat the estimate from the index). */
export interface RecallHistory {
  successes: number;
  failures: number;
}

/**
 * The share of failed recalls: from the log when it has recalls of the tracker, else estimated
 * from the index (each success adds at most 10, each failure takes 20, so with n repetitions and
 * index f about (10·n − (f − 100)) / 30 of them failed).
 */
export function failureShare(state: TrackerSchedule, history?: RecallHistory | null): number | null {
  if (history && history.successes + history.failures > 0) return history.failures / (history.successes + history.failures);
  const n = state.repetitionCount;
  if (n <= 0) return null;
  const failures = (10 * n - (state.forgettingCurveIndex - DEFAULT_FORGETTING_CURVE_INDEX)) / 30;
  return Math.min(Math.max(failures, 0), n) / n;
}

/**
 * Classic → FSRS, once per tracker when the user switches (the documented rule):
 * - stability: the tracker's current classic interval read as the time at which recall falls to
 *   the desired retention (so at 0.90 stability equals the interval); a tracker never recalled
 *   gets FSRS's first-review stability (Good), an interval of 0 after failures its Again value;
 * - difficulty: FSRS's first difficulty for Good, moved by 10 × (failure share − 0.10): a learner
 *   failing one recall in ten (what 90 % retention expects) keeps it, fewer failures make it
 *   easier, more make it harder (clamped to 1..10).
 * The tracker's lastRecalledAt and nextRecallAt are kept, so nothing becomes due by switching.
 */
export function toFsrs(
  state: TrackerSchedule,
  settings: FsrsSettings,
  history?: RecallHistory | null,
): { stability: number; difficulty: number } {
  const algorithm = algorithmFor(settings);
  const intervalHours = repeatInHours(settings.spaceIntervals, state.forgettingCurveIndex);
  const stability =
    intervalHours > 0
      ? Math.min(Math.max(intervalHours / 24 / algorithm.interval_modifier, 0.01), 36_500)
      : algorithm.init_stability(state.repetitionCount === 0 ? Rating.Good : Rating.Again);
  const share = failureShare(state, history);
  const base = algorithm.init_difficulty(Rating.Good);
  const difficulty = Math.min(Math.max(share === null ? base : base + 10 * (share - 0.1), 1), 10);
  return { stability: round(stability), difficulty: round(difficulty) };
}

/**
 * FSRS → classic, once per tracker when the user switches back: the index whose classic interval
 * first reaches the FSRS interval of the tracker's stability; the times are kept, FSRS state cleared.
 */
export function toForgettingCurve(state: FsrsSchedule, settings: FsrsSettings): FsrsSchedule {
  const forgettingCurveIndex =
    state.stability === null
      ? state.forgettingCurveIndex
      : indexForHours(settings.spaceIntervals, intervalHoursFor(settings, state.stability));
  return { ...state, forgettingCurveIndex, stability: null, difficulty: null };
}

const round = (value: number) => Math.round(value * 1e6) / 1e6;
