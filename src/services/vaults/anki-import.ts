/**
 * "Import Anki deck": an .apkg becomes a new notebook in one transaction. The deck tree becomes
 * the note tree; optionally each reviewed card's state carries over as a memory tracker whose
 * next recall and interval follow the card's due date and interval, its review history going
 * into the recall log. Suspended cards keep their notes out of assimilation and recall.
 */
import { isAiConfigured } from "../../ai/client";
import type { AppContext } from "../../context";
import { type OperationJson, operationJson, runOperation, saveUpload } from "../../operations";
import { startOperation } from "../../store/operations/operations-store";
import { ValidationError } from "../errors";
import { schedulerOf } from "../memory/reviews";
import { parseSpaceIntervals, repeatInHours } from "../scheduling/forgetting-curve";
import { EMBED_DELAY_MS } from "../search/embed-job";
import type { CurrentUser } from "../users";
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

/** The worker of one deck import: stopped after an hour or past 1.5 GiB (a deck at the limits takes well under both). */
export const ANKI_WORKER_LIMITS = { timeoutMs: 60 * 60_000, memoryBytes: 1536 * 1024 * 1024 };

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

/**
 * Starts importing an .apkg as a new notebook: a worker reads and writes it (see
 * operations/anki-import-task.ts). Answers the operation at once and the run (the report when it
 * ends; a failed run rejects with a WorkerTaskError, having written nothing).
 */
export async function startAnkiImport(
  ctx: AppContext,
  current: CurrentUser,
  file: unknown,
  withReviewState: boolean,
): Promise<{ operation: OperationJson; run: Promise<AnkiImportReport> }> {
  if (!(file instanceof Blob)) throw new ValidationError({ file: "must be an .apkg file" });
  const name = file instanceof File ? file.name : "Anki deck.apkg";
  if (!/\.(apkg|colpkg)$/i.test(name)) throw new ValidationError({ file: "must be an .apkg file" });
  const now = ctx.clock.now();
  const operation = startOperation(ctx.sqlite, { kind: "anki-import", userId: current.user.id, label: name }, now.getTime())!;
  const upload = await saveUpload(file, "deck.apkg");
  const run = runOperation(
    ctx,
    operation.id,
    "import-anki-deck",
    {
      databaseFile: ctx.sqlite.filename,
      operationId: operation.id,
      path: upload.path,
      name: name.replace(/\.(apkg|colpkg)$/i, "") || "Anki deck",
      user: current.user,
      intervals: parseSpaceIntervals(current.user.spaceIntervals),
      fsrs: schedulerOf(current.user) === "fsrs",
      withReviewState,
      now,
      embed: isAiConfigured(ctx),
      embedDelayMs: EMBED_DELAY_MS,
    },
    ANKI_WORKER_LIMITS,
    upload.dir,
  );
  run.catch(() => undefined);
  return { operation: operationJson(operation), run };
}
