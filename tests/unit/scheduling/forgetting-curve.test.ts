import { describe, expect, test } from "bun:test";
import {
  markAsRepeated,
  newSchedule,
  parseSpaceIntervals,
  recalledSuccessfully,
  recallFailed,
  repeatInHours,
  selfEvaluated,
  spacing,
  type TrackerSchedule,
} from "../../../src/services/scheduling/forgetting-curve";

const DEFAULT = parseSpaceIntervals("0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55");
const hours = (h: number) => new Date(h * 3_600_000);
const at = (fci: number, lastRecalledHour: number): TrackerSchedule => ({
  forgettingCurveIndex: fci,
  lastRecalledAt: hours(lastRecalledHour),
  nextRecallAt: hours(lastRecalledHour),
  repetitionCount: 0,
});

describe("interval length (reference hours table, default intervals)", () => {
  test.each([
    [90, 0],
    [100, 0],
    [101, 2],
    [102, 4],
    [103, 7],
    [104, 9],
    [105, 12],
    [110, 24],
    [115, 24],
    [120, 24],
    [121, 26],
    [123, 31],
    [125, 36],
    [130, 48],
    [135, 60],
    [140, 72],
    [145, 96],
    [150, 120],
    [160, 192],
    [162, 215],
    [163, 228],
    [170, 312],
    [180, 504],
    [190, 816],
    [200, 1320],
    [210, 2136],
    [220, 3456],
    [230, 5592],
    [240, 9048],
    [250, 14640],
    [300, 162360],
  ])("fci %i repeats in %i hours", (fci, expected) => {
    expect(repeatInHours(DEFAULT, fci)).toBe(expected);
  });

  test("intervals 3, 6, 9: index 0 is 72 hours, index 1.5 falls between 144 and 216", () => {
    const intervals = parseSpaceIntervals("3, 6, 9");
    expect(repeatInHours(intervals, 100)).toBe(72);
    const between = repeatInHours(intervals, 115);
    expect(between).toBeGreaterThan(144);
    expect(between).toBeLessThan(216);
  });

  test("past the user's list the interval never shrinks (docs/decisions.md, decision 2), and huge indexes never fail", () => {
    const intervals = parseSpaceIntervals("1, 2, 4, 8");
    expect(spacing(intervals, 4)).toBe(8);
    expect(repeatInHours(intervals, 140)).toBe(8 * 24);
    expect(spacing(DEFAULT, 30)).toBeGreaterThan(spacing(DEFAULT, 15));
    expect(() => repeatInHours(DEFAULT, 2000)).not.toThrow();
    expect(repeatInHours(DEFAULT, 5000)).toBe(36_525 * 24);
  });
});

describe("successful recall: early rewards and late penalties (intervals 3, 6, 9, 12, 15, fci 120 = 216 h)", () => {
  const intervals = parseSpaceIntervals("3, 6, 9, 12, 15");
  const recallAtDelay = (delay: number) => recalledSuccessfully(intervals, at(120, 0), hours(216 + delay)).forgettingCurveIndex;

  test("on time gives +10", () => expect(recallAtDelay(0)).toBe(130));
  test("at the very start of the interval gives +0", () => expect(recallAtDelay(-216)).toBe(120));
  test("just after the start", () => {
    expect(recallAtDelay(-215)).toBeGreaterThanOrEqual(120);
    expect(recallAtDelay(-215)).toBeLessThan(130);
  });
  test("an hour off either way", () => {
    for (const delay of [-1, 1]) {
      expect(recallAtDelay(delay)).toBeGreaterThan(120);
      expect(recallAtDelay(delay)).toBeLessThanOrEqual(130);
    }
  });
  test("a day late", () => {
    expect(recallAtDelay(24)).toBeGreaterThan(120);
    expect(recallAtDelay(24)).toBeLessThan(130);
  });
  test("ten days late", () => {
    expect(recallAtDelay(240)).toBeGreaterThan(100);
    expect(recallAtDelay(240)).toBeLessThan(120);
  });
  test("a hundred days late clamps to 100", () => expect(recallAtDelay(2400)).toBe(100));
});

describe("schedules", () => {
  test("on-time successes with the default intervals follow the reference table", () => {
    let state = newSchedule(DEFAULT, hours(0));
    expect(state.nextRecallAt).toEqual(hours(0));
    const expected = [
      [0, 110, 24],
      [24, 120, 24],
      [48, 130, 48],
      [96, 140, 72],
      [168, 150, 120],
      [288, 160, 192],
      [480, 170, 312],
      [792, 180, 504],
      [1296, 190, 816],
      [2112, 200, 1320],
    ];
    for (const [atHour, fci, interval] of expected) {
      state = markAsRepeated(DEFAULT, state, hours(atHour!), true);
      expect(state.forgettingCurveIndex).toBe(fci!);
      expect(state.nextRecallAt).toEqual(hours(atHour! + interval!));
    }
    expect(state.repetitionCount).toBe(10);
  });

  test("intervals 1, 2, 4, 8: the 8-day schedule", () => {
    const intervals = parseSpaceIntervals("1, 2, 4, 8");
    let state = newSchedule(intervals, hours(0));
    expect(state.nextRecallAt).toEqual(hours(24));
    const expected = [
      [24, 110, 48],
      [72, 120, 96],
      [168, 130, 192],
      [360, 140, 192],
    ];
    for (const [atHour, fci, interval] of expected) {
      state = recalledSuccessfully(intervals, state, hours(atHour!));
      expect(state.forgettingCurveIndex).toBe(fci!);
      expect(state.nextRecallAt).toEqual(hours(atHour! + interval!));
    }
  });

  test("n strict repetitions with 1, 2, 4, 8, then a late or early recall", () => {
    const intervals = parseSpaceIntervals("1, 2, 4, 8");
    const afterStrict = (n: number) => {
      let state = { ...newSchedule(intervals, hours(0)), nextRecallAt: hours(0) };
      for (let i = 0; i < n; i++) state = recalledSuccessfully(intervals, state, state.nextRecallAt);
      return state;
    };
    // "Days late" counts from the stored nextRecallAt, as the reference's test does.
    const recallDaysLate = (n: number, days: number) => {
      const state = afterStrict(n);
      return recalledSuccessfully(intervals, state, new Date(state.nextRecallAt.getTime() + days * 86_400_000)).forgettingCurveIndex;
    };
    expect(afterStrict(0).forgettingCurveIndex).toBe(100);
    expect(recallDaysLate(0, 1)).toBe(110);
    expect(recallDaysLate(2, -1)).toBe(115);
    expect(recallDaysLate(2, 0)).toBe(120);
    expect(recallDaysLate(2, 1)).toBe(115);
    expect(recallDaysLate(2, 100)).toBe(100);
  });

  test("a failure drops 20, asks again in 12 hours and keeps lastRecalledAt; the next success pays for it", () => {
    const failed = recallFailed(at(150, 0), hours(120));
    expect(failed).toEqual({ forgettingCurveIndex: 130, lastRecalledAt: hours(0), nextRecallAt: hours(132), repetitionCount: 1 });
    const next = recalledSuccessfully(DEFAULT, failed, hours(132));
    expect(next.forgettingCurveIndex).toBe(123);
    expect(next.nextRecallAt).toEqual(hours(132 + 31));
    expect(recallFailed(at(110, 0), hours(1)).forgettingCurveIndex).toBe(100);
  });

  test("self-evaluation moves the index without clamping and reschedules from lastRecalledAt", () => {
    const fresh = newSchedule(DEFAULT, hours(10));
    const plus = selfEvaluated(DEFAULT, fresh, 1);
    expect(plus.forgettingCurveIndex).toBe(101);
    expect(plus.repetitionCount).toBe(0);
    expect(plus.nextRecallAt).toEqual(hours(12));
    const minus = selfEvaluated(DEFAULT, fresh, -5);
    expect(minus.forgettingCurveIndex).toBe(95);
    expect(minus.nextRecallAt).toEqual(hours(10));
    expect(selfEvaluated(DEFAULT, at(150, 0), 5).nextRecallAt).toEqual(hours(repeatInHours(DEFAULT, 155)));
  });
});
