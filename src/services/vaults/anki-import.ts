/**
 * "Import Anki deck": an .apkg becomes a new notebook in one transaction. The deck tree becomes
 * the note tree; optionally each reviewed card's state carries over as a memory tracker whose
 * next recall and interval follow the card's due date and interval, its review history going
 * into the recall log. Suspended cards keep their notes out of assimilation and recall.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import type { AppContext } from "../../context";
import { memoryTrackers, notebooks, noteImages } from "../../db/schema";
import { runWorkerTask, WorkerTaskError } from "../../workers/run-task";
import { ValidationError } from "../errors";
import { logAssimilation, logImportedReviews, MAX_THINKING_TIME_MS, schedulerOf } from "../memory/reviews";
import { insertLastChildren, insertNote } from "../notes/insert-note";
import type { NoteRow } from "../notes/rows";
import { parseSpaceIntervals, repeatInHours } from "../scheduling/forgetting-curve";
import type { CurrentUser } from "../users";
import { importFailure } from "./import";
import type { AnkiCard, AnkiDeck, AnkiPackage, AnkiReview } from "./read-anki";
import type { SkippedFile, VaultImage } from "./read-vault";
import { asBuffer } from "./read-zip";

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

/** The worker that reads a deck: stopped after 3 minutes or past 1 GiB (a deck at the limits takes well under both). */
export const ANKI_WORKER_LIMITS = { timeoutMs: 180_000, memoryBytes: 1024 * 1024 * 1024 };

/**
 * Reads the package in a worker process (the upload is an untrusted SQLite program: see
 * anki-collection.ts), so a slow or greedy deck never holds up or endangers the server.
 */
async function readInWorker(file: Blob, name: string, now: Date): Promise<AnkiPackage> {
  const dir = await mkdtemp(join(tmpdir(), "engram-anki-upload-"));
  try {
    const path = join(dir, "deck.apkg");
    await Bun.write(path, file);
    return await runWorkerTask("read-anki-package", { path, name, now }, ANKI_WORKER_LIMITS);
  } catch (error) {
    if (!(error instanceof WorkerTaskError)) throw error;
    if (error.kind === "failed" && error.taskErrorName === "VaultImportError") throw importFailure(error.message);
    if (error.kind === "failed") throw error;
    throw importFailure(`reading the deck was stopped: ${error.message}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The smallest forgetting-curve index whose interval reaches the card's (the index grows in steps of 1). */
function indexForInterval(intervals: number[], days: number): number {
  const hours = days * 24;
  for (let index = 100; index < 100 + 10 * 60; index++) if (repeatInHours(intervals, index) >= hours) return index;
  return 100 + 10 * 60;
}

/** Only cards Anki has reviewed carry a state; new cards are left for assimilation. */
const isLearned = (card: AnkiCard | undefined): card is AnkiCard & { due: Date } => !!card && card.type !== 0 && card.due !== undefined;

const SUSPENDED = -1;
const BURIED = [-2, -3];

/**
 * A learned card's schedule as a tracker's: due when Anki has it due (a buried card not before
 * the collection's next day), last recalled at its last review (else its due date less its
 * interval), assimilated at its first review, at the place on the forgetting curve of its
 * interval; under FSRS, Anki's own FSRS memory state when it has one.
 */
function trackerSchedule(card: AnkiCard & { due: Date }, now: Date, intervals: number[], fsrs: boolean) {
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

export async function importAnkiDeck(
  ctx: AppContext,
  current: CurrentUser,
  file: unknown,
  withReviewState: boolean,
): Promise<AnkiImportReport> {
  if (!(file instanceof Blob)) throw new ValidationError({ file: "must be an .apkg file" });
  const name = file instanceof File ? file.name : "Anki deck.apkg";
  if (!/\.(apkg|colpkg)$/i.test(name)) throw new ValidationError({ file: "must be an .apkg file" });
  const deck = await readInWorker(file, name.replace(/\.(apkg|colpkg)$/i, "") || "Anki deck", ctx.clock.now());
  if (deck.noteCount === 0) throw importFailure("the deck has no notes");

  const report: Omit<AnkiImportReport, "noteId"> = { created: 0, images: 0, trackers: 0, reviews: 0, skipped: deck.skipped };
  const now = ctx.clock.now();
  const intervals = parseSpaceIntervals(current.user.spaceIntervals);
  const fsrs = schedulerOf(current.user) === "fsrs";
  let headId: number;
  try {
    headId = ctx.db.transaction((tx) => {
      const stored = new Map<string, number>();
      const imageId = (image: VaultImage | undefined) => {
        if (!image) return null;
        let id = stored.get(image.path);
        if (id === undefined) {
          id = tx
            .insert(noteImages)
            .values({ userId: current.user.id, contentType: image.contentType, bytes: asBuffer(image.bytes), createdAt: now })
            .returning({ id: noteImages.id })
            .get().id;
          stored.set(image.path, id);
        }
        report.images++;
        return id;
      };
      const notebook = tx.insert(notebooks).values({ creatorId: current.user.id, createdAt: now, updatedAt: now }).returning().get();
      const head = insertNote(tx, now, { headOf: notebook.id }, { title: deck.root.title });
      tx.update(notebooks).set({ headNoteId: head.id }).where(eq(notebooks.id, notebook.id)).run();
      const trackerValues: (typeof memoryTrackers.$inferInsert)[] = [];
      /** For each tracker value, the reviews to log after its assimilation (only the one that mirrors the card). */
      const trackerReviews: AnkiReview[][] = [];
      /** A deck's notes, then its sub-decks, under `parent`: inserted together (a deck may hold thousands). */
      const place = (source: AnkiDeck, parent: NoteRow) => {
        const rows = insertLastChildren(tx, now, [
          ...source.notes.map((note) => ({
            parent,
            columns: {
              title: note.title,
              details: note.details,
              imageId: imageId(note.image),
              // A cloze note is recalled by spelling its answer (spelling/cloze-answer.ts).
              rememberSpelling: !!note.clozeAnswer,
              // Suspended in Anki: out of assimilation and recall here too.
              skipMemoryTracking: note.card?.queue === SUSPENDED,
            },
          })),
          ...source.children.map((child) => ({ parent, columns: { title: child.title } })),
        ]);
        report.created += rows.length;
        source.notes.forEach((note, i) => {
          if (!withReviewState || !isLearned(note.card)) return;
          const schedule = trackerSchedule(note.card, now, intervals, fsrs);
          // As assimilation does: a note that remembers spelling gets a spelling tracker too, on the same
          // schedule; the card's reviews go to the tracker that asks what the card asked.
          const kinds = note.clozeAnswer ? [false, true] : [false];
          for (const spelling of kinds) {
            trackerValues.push({ userId: current.user.id, noteId: rows[i]!.id, spelling, ...schedule });
            trackerReviews.push(spelling === !!note.clozeAnswer ? note.card.reviews.slice(1) : []);
          }
        });
        for (const [i, child] of source.children.entries()) place(child, rows[source.notes.length + i]!);
      };
      place(deck.root, head);
      const trackerRows: (typeof memoryTrackers.$inferSelect)[] = [];
      for (let i = 0; i < trackerValues.length; i += 500) {
        trackerRows.push(
          ...tx
            .insert(memoryTrackers)
            .values(trackerValues.slice(i, i + 500))
            .returning()
            .all()
            .sort((a, b) => a.id - b.id),
        );
      }
      report.trackers = trackerRows.length;
      logAssimilation(tx, current, trackerRows);
      trackerRows.forEach((row, i) => {
        const reviews = trackerReviews[i]!;
        if (reviews.length === 0) return;
        logImportedReviews(
          tx,
          current.user.id,
          row.id,
          "anki",
          row.assimilatedAt,
          reviews.map((review) => ({
            at: review.at,
            success: review.ease > 1,
            thinkingTimeMs: Math.min(review.timeMs, MAX_THINKING_TIME_MS),
            scheduledDays: review.lastIntervalDays,
            intervalDays: review.intervalDays,
          })),
        );
        report.reviews += reviews.length;
      });
      return head.id;
    });
  } catch (error) {
    throw importFailure((error as Error).message || "the import stopped");
  }
  return { noteId: headId, ...report };
}
