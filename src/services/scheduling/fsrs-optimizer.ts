/**
 * "Optimize my parameters": fits the 21 FSRS-6 weights to one user's review log by
 * gradient descent on the log loss of the predicted recall probability (ts-fsrs ships no
 * optimizer for Bun or the browser). Pure: review histories in, weights and losses out.
 *
 * Held-out check: every fifth tracker is kept out of the fit; the answer reports the log loss on
 * those trackers' reviews with the defaults and with the fitted weights, and keeps the defaults
 * unless the fitted weights do better there.
 */
import { clipParameters, computeDecayFactor } from "ts-fsrs";
import { DEFAULT_WEIGHTS, gradeOf, type ReviewOutcome } from "./fsrs";

export const MIN_REVIEWS_TO_OPTIMIZE = 400;
const S_MIN = 0.001;
const S_MAX = 36_500;

/** One logged review of a tracker: days since the previous review, and what it said. */
export interface LoggedReview {
  elapsedDays: number;
  outcome: ReviewOutcome | "assimilation";
}

export interface OptimizeResult {
  /** Recalls (success or failure after a first review) in the log. */
  reviews: number;
  heldOutReviews: number;
  logLossBefore: number;
  /** The fitted weights' log loss on the held-out reviews (reported even when worse). */
  logLossAfter: number;
  /** "fitted" when the fitted weights predict the held-out reviews better, else "defaults". */
  kept: "fitted" | "defaults";
  /** The weights to use from now on: the fitted ones, or null to keep the defaults. */
  weights: number[] | null;
}

const clamp = (value: number, low: number, high: number) => Math.min(Math.max(value, low), high);

/**
 * FSRS-6's memory update with the short-term model off, as ts-fsrs computes it (its next_state),
 * without its rounding: the fit calls it millions of times. A unit test keeps the two equal.
 */
export function nextMemoryState(
  w: readonly number[],
  state: { stability: number; difficulty: number } | null,
  elapsedDays: number,
  grade: number,
) {
  const initDifficulty = (g: number) => w[4]! - Math.exp((g - 1) * w[5]!) + 1;
  if (!state) return { stability: Math.max(w[grade - 1]!, 0.1), difficulty: clamp(initDifficulty(grade), 1, 10) };
  const { stability: s, difficulty: d } = state;
  const decay = -w[20]!;
  const factor = 0.9 ** (1 / decay) - 1;
  const r = (1 + (factor * elapsedDays) / s) ** decay;
  let stability: number;
  if (grade === 1) {
    const afterFail = clamp(w[11]! * d ** -w[12]! * ((s + 1) ** w[13]! - 1) * Math.exp((1 - r) * w[14]!), S_MIN, S_MAX);
    stability = Math.min(Math.max(s, S_MIN), afterFail);
  } else {
    const hard = grade === 2 ? w[15]! : 1;
    const easy = grade === 4 ? w[16]! : 1;
    stability = clamp(s * (1 + Math.exp(w[8]!) * (11 - d) * s ** -w[9]! * (Math.exp((1 - r) * w[10]!) - 1) * hard * easy), S_MIN, S_MAX);
  }
  const delta = -w[6]! * (grade - 3);
  const next = d + (delta * (10 - d)) / 9;
  const difficulty = clamp(w[7]! * initDifficulty(4) + (1 - w[7]!) * next, 1, 10);
  return { stability, difficulty };
}

/** Mean log loss of the recall predictions over the histories (and how many there were). */
export function logLoss(w: readonly number[], histories: LoggedReview[][]): { loss: number; count: number } {
  const decay = -w[20]!;
  const factor = 0.9 ** (1 / decay) - 1;
  let [sum, count] = [0, 0];
  for (const history of histories) {
    let state: { stability: number; difficulty: number } | null = null;
    for (const review of history) {
      const grade = gradeOf(review.outcome);
      if (state && (review.outcome === "success" || review.outcome === "failure")) {
        const r = clamp((1 + (factor * review.elapsedDays) / state.stability) ** decay, 1e-6, 1 - 1e-6);
        sum -= review.outcome === "success" ? Math.log(r) : Math.log(1 - r);
        count++;
      }
      state = nextMemoryState(w, state, review.elapsedDays, grade);
    }
  }
  return { loss: count ? sum / count : 0, count };
}

const clip = (w: number[]) => clipParameters(w, 0, false);

/**
 * Adam on finite-difference gradients, every weight kept within ts-fsrs's bounds. Deterministic:
 * the same log always gives the same weights.
 */
export function fitWeights(histories: LoggedReview[][], steps = 60, start: readonly number[] = DEFAULT_WEIGHTS): number[] {
  let w = clip([...start]);
  const scale = w.map((v) => Math.max(Math.abs(v), 0.1));
  const [m, v] = [w.map(() => 0), w.map(() => 0)];
  const [rate, beta1, beta2] = [0.03, 0.9, 0.999];
  for (let step = 1; step <= steps; step++) {
    const base = logLoss(w, histories).loss;
    const gradient = w.map((value, i) => {
      const h = scale[i]! * 1e-3;
      const moved = [...w];
      moved[i] = value + h;
      return (logLoss(clip(moved), histories).loss - base) / h;
    });
    w = clip(
      w.map((value, i) => {
        m[i] = beta1 * m[i]! + (1 - beta1) * gradient[i]!;
        v[i] = beta2 * v[i]! + (1 - beta2) * gradient[i]! ** 2;
        const mHat = m[i]! / (1 - beta1 ** step);
        const vHat = v[i]! / (1 - beta2 ** step);
        return value - (rate * scale[i]! * mHat) / (Math.sqrt(vHat) + 1e-8);
      }),
    );
  }
  return w.map((value) => Math.round(value * 1e4) / 1e4);
}

/** Fits on four trackers in five, checks on the fifth, keeps the defaults unless the fit is better there. */
export function optimize(histories: LoggedReview[][], steps = 60): OptimizeResult {
  const training = histories.filter((_, i) => i % 5 !== 4);
  const heldOut = histories.filter((_, i) => i % 5 === 4);
  const reviews = logLoss(DEFAULT_WEIGHTS, histories).count;
  const before = logLoss(DEFAULT_WEIGHTS, heldOut);
  const fitted = fitWeights(training, steps);
  const after = logLoss(fitted, heldOut).loss;
  // computeDecayFactor throws on impossible weights: a last guard before they are stored.
  computeDecayFactor(fitted);
  const better = after < before.loss;
  return {
    reviews,
    heldOutReviews: before.count,
    logLossBefore: round(before.loss),
    logLossAfter: round(after),
    kept: better ? "fitted" : "defaults",
    weights: better ? fitted : null,
  };
}

const round = (value: number) => Math.round(value * 1e4) / 1e4;
