import { describe, expect, test } from "bun:test";
import { createEmptyCard, forgetting_curve, fsrs, type Grade, Rating } from "ts-fsrs";
import { parseSpaceIntervals, repeatInHours } from "../../../src/services/scheduling/forgetting-curve";
import {
  DEFAULT_WEIGHTS,
  elapsedRatioAt,
  type FsrsSchedule,
  type FsrsSettings,
  failureShare,
  fsrsAssimilated,
  fsrsReviewed,
  gradeOf,
  indexForHours,
  intervalHoursFor,
  type ReviewOutcome,
  retrievability,
  toForgettingCurve,
  toFsrs,
} from "../../../src/services/scheduling/fsrs";

const DEFAULT_W = [...DEFAULT_WEIGHTS];
const DEFAULT = parseSpaceIntervals("0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55");
const settings = (more: Partial<FsrsSettings> = {}): FsrsSettings => ({
  desiredRetention: 0.9,
  maximumIntervalDays: 36_500,
  spaceIntervals: DEFAULT,
  ...more,
});
const T0 = new Date("2026-01-01T08:00:00.000Z");
const HOUR = 3_600_000;
const hoursOf = (s: FsrsSchedule) => (s.nextRecallAt.getTime() - s.lastRecalledAt.getTime()) / HOUR;

/** Assimilates at T0, then reviews each time exactly when due; answers the interval history in hours. */
function history(outcomes: ReviewOutcome[], options = settings()) {
  let state = fsrsAssimilated(options, T0);
  const intervals = [hoursOf(state)];
  const states = [state];
  for (const outcome of outcomes) {
    state = fsrsReviewed(state, outcome, state.nextRecallAt, options);
    intervals.push(hoursOf(state));
    states.push(state);
  }
  return { intervals, states };
}

describe("grades", () => {
  test("wrong/No → Again, right → Good, +5 → Easy, −5 → Hard, assimilation → Good", () => {
    expect(["failure", "success", "+5", "-5", "assimilation"].map((o) => gradeOf(o as ReviewOutcome))).toEqual([
      Rating.Again,
      Rating.Good,
      Rating.Easy,
      Rating.Hard,
      Rating.Good,
    ]);
  });
});

describe("the FSRS-6 adapter (default weights, 90 % retention, reviews exactly when due)", () => {
  test("assimilation is the first review (Good): stability w2, due in whole hours", () => {
    const state = fsrsAssimilated(settings(), T0);
    expect(state.stability).toBe(2.3065);
    expect(state.nextRecallAt.toISOString()).toBe("2026-01-03T15:00:00.000Z"); // 2.3065 days → 55 h
    expect(state.repetitionCount).toBe(0);
    expect(state.forgettingCurveIndex).toBe(indexForHours(DEFAULT, 55));
  });

  test("a list of grades gives the expected interval history (hours)", () => {
    const { intervals, states } = history(["success", "success", "failure", "success", "+5", "-5", "success"]);
    expect(intervals).toEqual([55, 285, 1188, 72, 189, 679, 1248, 2413]);
    // Self-evaluations do not count as repetitions (as in the classic scheduler).
    expect(states.map((s) => s.repetitionCount)).toEqual([0, 1, 2, 3, 4, 4, 4, 5]);
    for (const state of states) expect(Number.isInteger(hoursOf(state))).toBe(true);
  });

  test("difficulties follow ts-fsrs's own scheduler for the same grades", () => {
    const { states } = history(["success", "success", "failure", "success", "+5", "-5", "success"]);
    const scheduler = fsrs({ enable_short_term: false, enable_fuzz: false });
    let card = createEmptyCard(T0);
    const difficulties: number[] = [];
    for (const grade of [
      Rating.Good,
      Rating.Good,
      Rating.Good,
      Rating.Again,
      Rating.Good,
      Rating.Easy,
      Rating.Hard,
      Rating.Good,
    ] as Grade[]) {
      card = scheduler.next(card, card.due, grade).card;
      difficulties.push(card.difficulty);
    }
    expect(states.map((s) => s.difficulty)).toEqual(difficulties);
  });

  test("all successes: intervals grow; all failures: they stay short", () => {
    const good = history(Array(6).fill("success")).intervals;
    for (let i = 1; i < good.length; i++) expect(good[i]!).toBeGreaterThan(good[i - 1]!);
    const bad = history(Array(4).fill("failure")).intervals.slice(1);
    for (const hours of bad) expect(hours).toBeLessThanOrEqual(24);
  });

  test("a higher desired retention asks sooner; the maximum interval caps it", () => {
    const at90 = history(Array(4).fill("success")).intervals;
    const at97 = history(Array(4).fill("success"), settings({ desiredRetention: 0.97 })).intervals;
    expect(at97.at(-1)!).toBeLessThan(at90.at(-1)!);
    const capped = history(Array(8).fill("success"), settings({ maximumIntervalDays: 10 })).intervals;
    expect(Math.max(...capped)).toBe(240);
  });

  test("a failure moves lastRecalledAt (every answer is a review for FSRS)", () => {
    const first = fsrsAssimilated(settings(), T0);
    const later = new Date(T0.getTime() + 100 * HOUR);
    const failed = fsrsReviewed(first, "failure", later, settings());
    expect(failed.lastRecalledAt).toEqual(later);
    expect(failed.stability!).toBeLessThan(first.stability!);
  });

  test("no fuzz without a draw; with one the interval stays within ts-fsrs's fuzz range", () => {
    expect(intervalHoursFor(settings(), 30)).toBe(720);
    const low = intervalHoursFor(settings(), 30, 0, 0);
    const high = intervalHoursFor(settings(), 30, 0, 0.999);
    expect(low).toBeLessThan(720);
    expect(high).toBeGreaterThan(720);
    expect(high - low).toBeLessThan(24 * 8);
    expect(intervalHoursFor(settings(), 1, 0, 0.999)).toBe(24); // under 2.5 days: never fuzzed
  });
});

describe("the retrievability thresholds the statistics count by", () => {
  test("after elapsedRatioAt(bound) stabilities, ts-fsrs's FSRS-6 curve is at the bound", () => {
    expect(elapsedRatioAt({}, 0.9)).toBeCloseTo(1, 6); // stability: the time to fall to 90 %
    for (const bound of [0.7, 0.8, 0.95]) {
      for (const stability of [0.5, 3, 120]) {
        const t = elapsedRatioAt({}, bound) * stability;
        expect(forgetting_curve(DEFAULT_W, t, stability)).toBeCloseTo(bound, 6);
        expect(retrievability({}, t * 1.01, stability)).toBeLessThan(bound);
      }
    }
  });
});

describe("switching schedulers converts each tracker once", () => {
  const classic = (fci: number, repetitionCount: number) => ({
    forgettingCurveIndex: fci,
    lastRecalledAt: T0,
    nextRecallAt: new Date(T0.getTime() + repeatInHours(DEFAULT, fci) * HOUR),
    repetitionCount,
  });

  test("classic → FSRS: stability is the current interval at 90 %, the times are kept", () => {
    const tracker = classic(150, 5); // 120 h = 5 days, five on-time successes
    const { stability, difficulty } = toFsrs(tracker, settings());
    expect(stability).toBe(5);
    expect(difficulty).toBeCloseTo(2.118104 - 1, 5); // no failures: one point easier than a first Good
    // FSRS would ask again after exactly the same interval, so nothing becomes due by switching.
    expect(intervalHoursFor(settings(), stability)).toBe(120);
  });

  test("a lower desired retention reads the same interval as a smaller stability", () => {
    expect(toFsrs(classic(150, 5), settings({ desiredRetention: 0.8 })).stability).toBeLessThan(5);
  });

  test("difficulty from the success history: logged recalls first, else estimated from the index", () => {
    expect(failureShare(classic(150, 5))).toBe(0);
    expect(failureShare(classic(100, 3))).toBeCloseTo(1 / 3, 10); // the index at 100 after 3: at least one failed
    expect(failureShare(classic(130, 6))).toBeCloseTo(1 / 6, 10); // 6 reviews, +30: one failure among them
    expect(failureShare(classic(120, 4), { successes: 1, failures: 3 })).toBe(0.75);
    const easy = toFsrs(classic(150, 5), settings()).difficulty;
    const hard = toFsrs(classic(150, 5), settings(), { successes: 2, failures: 3 }).difficulty;
    expect(hard).toBeGreaterThan(easy);
    expect(toFsrs(classic(100, 0), settings())).toEqual({ stability: 2.3065, difficulty: 2.118104 }); // never recalled: first Good
  });

  test("FSRS → classic: the index of the FSRS interval, times kept, FSRS state cleared; a round trip keeps the index", () => {
    for (const fci of [110, 130, 150, 170, 200]) {
      const tracker = classic(fci, 3);
      const converted = toFsrs(tracker, settings());
      const back = toForgettingCurve({ ...tracker, ...converted }, settings());
      expect(back.stability).toBeNull();
      expect(back.nextRecallAt).toEqual(tracker.nextRecallAt);
      expect(repeatInHours(DEFAULT, back.forgettingCurveIndex)).toBe(repeatInHours(DEFAULT, fci));
    }
  });

  test("indexForHours is the smallest index reaching the hours", () => {
    expect(indexForHours(DEFAULT, 0)).toBe(100);
    expect(indexForHours(DEFAULT, 24)).toBe(110);
    expect(indexForHours(DEFAULT, 120)).toBe(150);
    expect(repeatInHours(DEFAULT, indexForHours(DEFAULT, 200))).toBeGreaterThanOrEqual(200);
    expect(repeatInHours(DEFAULT, indexForHours(DEFAULT, 200) - 1)).toBeLessThan(200);
  });
});
