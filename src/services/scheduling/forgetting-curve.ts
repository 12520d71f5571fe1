/**
 * The forgetting curve (docs/decisions.md, decisions 1 and 2): pure functions of a
 * tracker's state, `now` and the user's space intervals. No database, clock or randomness here.
 *
 * The index starts at 100; each step of 10 moves one place along the interval table (in days).
 */
export const DEFAULT_FORGETTING_CURVE_INDEX = 100;
export const FORGETTING_CURVE_INDEX_INCREMENT = 10;
export const FAILURE_RECALL_DELAY_HOURS = 12;
const HOUR_MS = 3_600_000;
/** Intervals never exceed 100 years. */
const MAX_INTERVAL_DAYS = 36_525;

/** The default spacing table of the reference (days), indices 0..25. */
export const DEFAULT_SPACES = [
  0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610, 987, 1597, 2584, 4181, 6765, 10946, 17711, 28657, 46368, 75025,
];

/** "0, 1, 1, 2" → [0, 1, 1, 2]; an empty string gives []. */
export function parseSpaceIntervals(text: string | null | undefined): number[] {
  if (!text?.trim()) return [];
  return text
    .split(/,\s*/)
    .map((part) => Number.parseInt(part, 10))
    .filter((n) => Number.isFinite(n));
}

/** The default table's value at any index: past its end it keeps growing (Fibonacci), capped. */
function defaultSpacing(index: number): number {
  if (index < DEFAULT_SPACES.length) return DEFAULT_SPACES[index]!;
  let [a, b] = [DEFAULT_SPACES.at(-2)!, DEFAULT_SPACES.at(-1)!];
  for (let i = DEFAULT_SPACES.length; i <= index && b < MAX_INTERVAL_DAYS; i++) [a, b] = [b, a + b];
  return Math.min(b, MAX_INTERVAL_DAYS);
}

/**
 * The interval (days) at a place of the table: the user's own value while their list lasts;
 * past its end never shorter than their last value (docs/decisions.md, decision 2), nor than the default table.
 */
export function spacing(intervals: number[], index: number): number {
  if (index < intervals.length) return Math.min(intervals[index]!, MAX_INTERVAL_DAYS);
  const last = intervals.length ? intervals[intervals.length - 1]! : 0;
  return Math.min(Math.max(last, defaultSpacing(index)), MAX_INTERVAL_DAYS);
}

/**
 * Hours until the next recall for an index, interpolated between two places of the table, in
 * single-precision arithmetic truncated to whole hours exactly as the reference computes it.
 */
export function repeatInHours(intervals: number[], forgettingCurveIndex: number): number {
  const f = Math.fround;
  const index = f((forgettingCurveIndex - DEFAULT_FORGETTING_CURVE_INDEX) / FORGETTING_CURVE_INDEX_INCREMENT);
  if (index < 0) return 0;
  const whole = Math.trunc(index);
  const floor = spacing(intervals, whole);
  const ceil = spacing(intervals, whole + 1);
  const fraction = f(index - whole);
  const product = f(f((ceil - floor) * 24) * fraction);
  return Math.trunc(f(floor * 24 + product));
}

export interface TrackerSchedule {
  forgettingCurveIndex: number;
  lastRecalledAt: Date;
  nextRecallAt: Date;
  repetitionCount: number;
}

const addHours = (date: Date, hours: number) => new Date(date.getTime() + hours * HOUR_MS);
/** Index change clamped to at least the default index (success and failure only). */
const clampedIndex = (index: number) => Math.max(DEFAULT_FORGETTING_CURVE_INDEX, index);

/** The schedule of a freshly assimilated tracker. */
export function newSchedule(intervals: number[], now: Date): TrackerSchedule {
  return {
    forgettingCurveIndex: DEFAULT_FORGETTING_CURVE_INDEX,
    lastRecalledAt: now,
    nextRecallAt: addHours(now, repeatInHours(intervals, DEFAULT_FORGETTING_CURVE_INDEX)),
    repetitionCount: 0,
  };
}

/**
 * A successful recall: the index moves by 10 − floor(|delay|·10 / old interval), the delay being
 * measured in whole hours (truncated) against lastRecalledAt + the current interval.
 */
export function recalledSuccessfully(intervals: number[], state: TrackerSchedule, now: Date): TrackerSchedule {
  const oldInterval = repeatInHours(intervals, state.forgettingCurveIndex);
  const expected = addHours(state.lastRecalledAt, oldInterval);
  const delayHours = Math.trunc((now.getTime() - expected.getTime()) / HOUR_MS);
  const adjustment =
    oldInterval > 0
      ? FORGETTING_CURVE_INDEX_INCREMENT - Math.floor((Math.abs(delayHours) * 10) / oldInterval)
      : FORGETTING_CURVE_INDEX_INCREMENT;
  const forgettingCurveIndex = clampedIndex(state.forgettingCurveIndex + adjustment);
  return {
    forgettingCurveIndex,
    lastRecalledAt: now,
    nextRecallAt: addHours(now, repeatInHours(intervals, forgettingCurveIndex)),
    repetitionCount: state.repetitionCount + 1,
  };
}

/** A failed recall: the index drops by 20 (not below 100), asked again in 12 hours; lastRecalledAt stays. */
export function recallFailed(state: TrackerSchedule, now: Date): TrackerSchedule {
  return {
    forgettingCurveIndex: clampedIndex(state.forgettingCurveIndex - 2 * FORGETTING_CURVE_INDEX_INCREMENT),
    lastRecalledAt: state.lastRecalledAt,
    nextRecallAt: addHours(now, FAILURE_RECALL_DELAY_HOURS),
    repetitionCount: state.repetitionCount + 1,
  };
}

export function markAsRepeated(intervals: number[], state: TrackerSchedule, now: Date, successful: boolean): TrackerSchedule {
  return successful ? recalledSuccessfully(intervals, state, now) : recallFailed(state, now);
}

/** Self-evaluation: the index moves by the adjustment without clamping, rescheduled from lastRecalledAt. */
export function selfEvaluated(intervals: number[], state: TrackerSchedule, adjustment: number): TrackerSchedule {
  const forgettingCurveIndex = state.forgettingCurveIndex + adjustment;
  return {
    ...state,
    forgettingCurveIndex,
    nextRecallAt: addHours(state.lastRecalledAt, repeatInHours(intervals, forgettingCurveIndex)),
  };
}
