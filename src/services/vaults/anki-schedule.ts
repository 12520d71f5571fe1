/**
 * How an Anki card's state becomes a memory tracker's (pure: the worker that writes a deck and
 * the tests use it), and what a deck import reports.
 */
import { repeatInHours } from "../scheduling/forgetting-curve";
import type { AnkiCard } from "./read-anki";
import type { SkippedFile } from "./read-vault";

export interface AnkiImportReport {
  /** The new notebook's head note (the page goes there). */
  noteId: number;
  created: number;
  images: number;
  trackers: number;
  /** Reviews carried over from the deck's review history into the recall log. */
  reviews: number;
  skipped: SkippedFile[];
}

const DAY_MS = 86_400_000;

/** The smallest forgetting-curve index whose interval reaches the card's (the index grows in steps of 1). */
function indexForInterval(intervals: number[], days: number): number {
  const hours = days * 24;
  for (let index = 100; index < 100 + 10 * 60; index++) if (repeatInHours(intervals, index) >= hours) return index;
  return 100 + 10 * 60;
}

/** Only cards Anki has reviewed carry a state; new cards are left for assimilation. */
export const isLearned = (card: AnkiCard | undefined): card is AnkiCard & { due: Date } =>
  !!card && card.type !== 0 && card.due !== undefined;

export const SUSPENDED = -1;
const BURIED = [-2, -3];

/**
 * A learned card's schedule as a tracker's: due when Anki has it due (a buried card not before
 * the collection's next day), last recalled at its last review (else its due date less its
 * interval), assimilated at its first review, at the place on the forgetting curve of its
 * interval; under FSRS, Anki's own FSRS memory state when it has one.
 */
export function trackerSchedule(card: AnkiCard & { due: Date }, now: Date, intervals: number[], fsrs: boolean) {
  const interval = Math.max(card.intervalDays, 0);
  const lastReview = card.reviews.at(-1)?.at;
  const lastRecalledAt =
    lastReview && lastReview <= now ? lastReview : new Date(Math.min(now.getTime(), card.due.getTime() - interval * DAY_MS));
  const firstReview = card.reviews[0]?.at;
  const nextRecallAt = BURIED.includes(card.queue) && card.due < card.nextDay ? card.nextDay : card.due;
  return {
    assimilatedAt: firstReview && firstReview <= lastRecalledAt ? firstReview : lastRecalledAt,
    lastRecalledAt,
    nextRecallAt,
    repetitionCount: card.reps,
    forgettingCurveIndex: indexForInterval(intervals, interval),
    // Suspended in Anki: kept with its history, but out of reviews.
    removedFromTracking: card.queue === SUSPENDED,
    ...(fsrs ? { stability: card.stability ?? Math.max(interval, 1), difficulty: card.difficulty ?? 5 } : {}),
  };
}
