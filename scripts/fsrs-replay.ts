/**
 * Replays a review log in the Anki revlog CSV form (card_id,review_time,rating,elapsed_days:
 * rating 1 Again .. 4 Easy, review_time in ms, elapsed_days since the card's previous review)
 * through both of Engram's schedulers and prints how well each predicts recall: log loss and
 * RMSE of the predicted probability against what happened.
 *
 *   node_modules/.bin/bun scripts/fsrs-replay.ts [file.csv]       replay (default: the sample)
 *   node_modules/.bin/bun scripts/fsrs-replay.ts --simulate out.csv [cards] [seed]
 *
 * Predictions: FSRS-6 (default weights) predicts R from its memory state. The classic forgetting
 * curve predicts no probability itself; as srs-benchmark does for SM-2, it is read as 90 % recall
 * at the end of its current interval with exponential forgetting, R = 0.9^(t / interval).
 * The sample (tests/fixtures/anki-revlog-sample.csv) is made by --simulate: learners whose memory
 * follows FSRS-6 with stabilities 1.5× the defaults, reviewed on the classic scheduler's dates.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  DEFAULT_FORGETTING_CURVE_INDEX,
  markAsRepeated,
  parseSpaceIntervals,
  repeatInHours,
} from "../src/services/scheduling/forgetting-curve";
import { DEFAULT_WEIGHTS } from "../src/services/scheduling/fsrs";
import { nextMemoryState } from "../src/services/scheduling/fsrs-optimizer";

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
export const SAMPLE = join(import.meta.dir, "../tests/fixtures/anki-revlog-sample.csv");
const INTERVALS = parseSpaceIntervals("0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55");

export interface RevlogRow {
  cardId: number;
  reviewTime: number;
  rating: number;
  elapsedDays: number;
}

/** A small seeded generator (mulberry32), so the sample is the same every time. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Cards learned one a day; each is reviewed when the classic scheduler says and remembered with
 * the probability of a "true" FSRS-6 memory (the given weights).
 */
export function simulate(
  cards = 150,
  seed = 17,
  trueWeights: readonly number[] = DEFAULT_WEIGHTS.map((w, i) => (i < 4 ? w * 1.5 : w)),
  days = 365,
): RevlogRow[] {
  const next = random(seed);
  const rows: RevlogRow[] = [];
  const start = Date.UTC(2026, 0, 1, 8);
  const decay = -trueWeights[20]!;
  const factor = 0.9 ** (1 / decay) - 1;
  for (let card = 1; card <= cards; card++) {
    const learnedAt = start + (card - 1) * DAY_MS;
    let memory = nextMemoryState(trueWeights, null, 0, 3);
    let schedule = {
      forgettingCurveIndex: DEFAULT_FORGETTING_CURVE_INDEX,
      lastRecalledAt: new Date(learnedAt),
      nextRecallAt: new Date(learnedAt),
      repetitionCount: 0,
    };
    let previous = learnedAt;
    rows.push({ cardId: card, reviewTime: learnedAt, rating: 3, elapsedDays: 0 });
    // The first recall a few hours after learning, as Engram's classic scheduler asks at once.
    let at = learnedAt + (4 + Math.floor(next() * 8)) * HOUR_MS;
    while (at < start + days * DAY_MS) {
      const elapsed = (at - previous) / DAY_MS;
      const r = (1 + (factor * elapsed) / memory.stability) ** decay;
      const remembered = next() < r;
      const rating = remembered ? 3 : 1;
      rows.push({ cardId: card, reviewTime: at, rating, elapsedDays: Math.round(elapsed * 1000) / 1000 });
      memory = nextMemoryState(trueWeights, memory, elapsed, rating);
      schedule = markAsRepeated(INTERVALS, schedule, new Date(at), remembered);
      previous = at;
      // Learners come back within a day of the due date.
      at = Math.max(schedule.nextRecallAt.getTime(), at + HOUR_MS) + Math.floor(next() * 24) * HOUR_MS;
    }
  }
  return rows.sort((a, b) => a.reviewTime - b.reviewTime || a.cardId - b.cardId);
}

export function toCsv(rows: RevlogRow[]): string {
  return `card_id,review_time,rating,elapsed_days\n${rows.map((r) => `${r.cardId},${r.reviewTime},${r.rating},${r.elapsedDays}`).join("\n")}\n`;
}

export function parseCsv(text: string): RevlogRow[] {
  const [header, ...lines] = text.trim().split(/\r?\n/);
  const columns = header!.split(",").map((c) => c.trim());
  const at = (name: string) => {
    const index = columns.indexOf(name);
    if (index < 0) throw new Error(`the CSV has no ${name} column`);
    return index;
  };
  const [card, time, rating, elapsed] = [at("card_id"), at("review_time"), at("rating"), at("elapsed_days")];
  return lines
    .filter((line) => line.trim())
    .map((line) => {
      const cells = line.split(",");
      return {
        cardId: Number(cells[card]),
        reviewTime: Number(cells[time]),
        rating: Number(cells[rating]),
        elapsedDays: Number(cells[elapsed]),
      };
    });
}

export interface Scores {
  reviews: number;
  fsrs: { logLoss: number; rmse: number };
  classic: { logLoss: number; rmse: number };
}

/** Replays every card's reviews in time order and scores each scheduler's prediction of each recall. */
export function replay(rows: RevlogRow[]): Scores {
  const byCard = new Map<number, RevlogRow[]>();
  for (const row of [...rows].sort((a, b) => a.reviewTime - b.reviewTime)) {
    if (!byCard.has(row.cardId)) byCard.set(row.cardId, []);
    byCard.get(row.cardId)!.push(row);
  }
  const decay = -DEFAULT_WEIGHTS[20]!;
  const factor = 0.9 ** (1 / decay) - 1;
  const sums = { fsrs: { loss: 0, square: 0 }, classic: { loss: 0, square: 0 } };
  let reviews = 0;
  const score = (which: "fsrs" | "classic", p: number, remembered: boolean) => {
    const r = Math.min(Math.max(p, 1e-6), 1 - 1e-6);
    sums[which].loss -= remembered ? Math.log(r) : Math.log(1 - r);
    sums[which].square += ((remembered ? 1 : 0) - p) ** 2;
  };
  for (const history of byCard.values()) {
    const first = history[0]!;
    let memory = nextMemoryState(DEFAULT_WEIGHTS, null, 0, first.rating);
    let schedule = {
      forgettingCurveIndex: DEFAULT_FORGETTING_CURVE_INDEX,
      lastRecalledAt: new Date(first.reviewTime),
      nextRecallAt: new Date(first.reviewTime),
      repetitionCount: 0,
    };
    for (const row of history.slice(1)) {
      const remembered = row.rating > 1;
      score("fsrs", (1 + (factor * row.elapsedDays) / memory.stability) ** decay, remembered);
      const intervalDays = Math.max(repeatInHours(INTERVALS, schedule.forgettingCurveIndex), 1) / 24;
      const sinceClassic = (row.reviewTime - schedule.lastRecalledAt.getTime()) / DAY_MS;
      score("classic", 0.9 ** (sinceClassic / intervalDays), remembered);
      reviews++;
      memory = nextMemoryState(DEFAULT_WEIGHTS, memory, row.elapsedDays, row.rating);
      schedule = markAsRepeated(INTERVALS, schedule, new Date(row.reviewTime), remembered);
    }
  }
  const result = (which: "fsrs" | "classic") => ({
    logLoss: Math.round((sums[which].loss / reviews) * 1e4) / 1e4,
    rmse: Math.round(Math.sqrt(sums[which].square / reviews) * 1e4) / 1e4,
  });
  return { reviews, fsrs: result("fsrs"), classic: result("classic") };
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  if (args[0] === "--simulate") {
    const rows = simulate(Number(args[2] ?? 150), Number(args[3] ?? 17));
    writeFileSync(args[1] ?? SAMPLE, toCsv(rows));
    console.log(`wrote ${rows.length} reviews of ${new Set(rows.map((r) => r.cardId)).size} cards to ${args[1] ?? SAMPLE}`);
  } else {
    const file = args[0] ?? SAMPLE;
    const scores = replay(parseCsv(readFileSync(file, "utf8")));
    console.log(`${file}: ${scores.reviews} recalls`);
    console.log(`  FSRS-6 (default weights)   log loss ${scores.fsrs.logLoss.toFixed(4)}   RMSE ${scores.fsrs.rmse.toFixed(4)}`);
    console.log(`  forgetting curve (classic) log loss ${scores.classic.logLoss.toFixed(4)}   RMSE ${scores.classic.rmse.toFixed(4)}`);
  }
}
