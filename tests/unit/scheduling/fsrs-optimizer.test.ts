import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { clipParameters, FSRSAlgorithm } from "ts-fsrs";
import { parseCsv, type RevlogRow, replay, SAMPLE, simulate, toCsv } from "../../../scripts/fsrs-replay";
import { DEFAULT_WEIGHTS } from "../../../src/services/scheduling/fsrs";
import { type LoggedReview, logLoss, nextMemoryState, optimize } from "../../../src/services/scheduling/fsrs-optimizer";

/** Revlog rows → one review history per card (the first review is the assimilation). */
function histories(rows: RevlogRow[]): LoggedReview[][] {
  const byCard = new Map<number, LoggedReview[]>();
  for (const row of rows) {
    const list = byCard.get(row.cardId) ?? [];
    list.push({ elapsedDays: row.elapsedDays, outcome: list.length === 0 ? "assimilation" : row.rating > 1 ? "success" : "failure" });
    byCard.set(row.cardId, list);
  }
  return [...byCard.values()];
}

describe("the optimizer's memory model", () => {
  test("is ts-fsrs's next_state (short-term model off) for many states, gaps and grades", () => {
    const reference = new FSRSAlgorithm({ enable_short_term: false });
    let seed = 1;
    const next = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    for (let i = 0; i < 500; i++) {
      const state = { stability: 0.1 + next() * 400, difficulty: 1 + next() * 9 };
      const t = next() * 200;
      const grade = 1 + Math.floor(next() * 4);
      const ours = nextMemoryState(DEFAULT_WEIGHTS, state, t, grade);
      const theirs = reference.next_state(state, t, grade);
      // Equal but for ts-fsrs rounding its intermediate values to 8 decimals.
      expect(Math.abs(ours.stability - theirs.stability)).toBeLessThan(1e-6 * Math.max(1, theirs.stability));
      expect(Math.abs(ours.difficulty - theirs.difficulty)).toBeLessThan(1e-6);
    }
    const [first, reference0] = [nextMemoryState(DEFAULT_WEIGHTS, null, 0, 3), reference.next_state(null, 0, 3)];
    expect(first.stability).toBe(reference0.stability);
    expect(first.difficulty).toBeCloseTo(reference0.difficulty, 7);
  });
});

describe("Optimize my parameters", () => {
  test("a learner who forgets three times slower than FSRS's defaults: the fit predicts their held-out reviews better", () => {
    const slow = DEFAULT_WEIGHTS.map((w, i) => (i < 4 ? w * 3 : w));
    const result = optimize(histories(simulate(200, 5, slow, 300)), 40);
    expect(result.reviews).toBeGreaterThanOrEqual(400);
    expect(result.kept).toBe("fitted");
    expect(result.logLossAfter).toBeLessThan(result.logLossBefore);
    // The fitted weights stay within ts-fsrs's bounds and raise the first stabilities.
    expect(result.weights).toEqual(clipParameters([...result.weights!], 0, false).map((w) => Math.round(w * 1e4) / 1e4));
    expect(result.weights![2]!).toBeGreaterThan(DEFAULT_WEIGHTS[2]!);
  }, 30_000);

  test("never worse than the defaults: when the fit does not beat them on held-out reviews, the defaults stay", () => {
    for (const seed of [1, 2, 3]) {
      const result = optimize(histories(simulate(60, seed, DEFAULT_WEIGHTS, 200)), 10);
      expect(result.kept === "fitted").toBe(result.logLossAfter < result.logLossBefore);
      if (result.kept === "defaults") expect(result.weights).toBeNull();
    }
  });

  test("log loss is the mean of −log p over recalls, skipping self-evaluations as predictions", () => {
    const history: LoggedReview[] = [
      { elapsedDays: 0, outcome: "assimilation" },
      { elapsedDays: 1, outcome: "+5" },
      { elapsedDays: 2.3065, outcome: "success" },
    ];
    const { loss, count } = logLoss(DEFAULT_WEIGHTS, [history]);
    expect(count).toBe(1);
    expect(loss).toBeGreaterThan(0);
    expect(loss).toBeLessThan(-Math.log(0.8));
  });
});

describe("scripts/fsrs-replay.ts", () => {
  test("the committed sample is the script's own simulation, and FSRS predicts it better than the classic curve", () => {
    expect(readFileSync(SAMPLE, "utf8")).toBe(toCsv(simulate()));
    const scores = replay(parseCsv(readFileSync(SAMPLE, "utf8")));
    expect(scores.reviews).toBeGreaterThan(2000);
    expect(scores.fsrs.logLoss).toBeLessThan(scores.classic.logLoss);
    expect(scores.fsrs.rmse).toBeLessThan(scores.classic.rmse);
  });
});
