/**
 * The worker side of "Import Anki deck" (a worker task, src/workers/tasks.ts): reads the .apkg
 * (an untrusted SQLite program, see anki-collection.ts) and writes it as a new notebook with the
 * worker's own connection, in short transactions: images as they are read, the deck tree's notes
 * (hidden until published), memory trackers (out of recall until published) and their review
 * history (out of the statistics until published). One short publishing transaction shows it
 * all; a failure removes what was written.
 */
import type { memoryTrackers } from "../db/schema";
import { assimilationState, importedReviewRows, MAX_THINKING_TIME_MS } from "../services/memory/reviews";
import type { NoteRow } from "../services/notes/rows";
import type { CurrentUser } from "../services/users";
import { type AnkiImportReport, isLearned, SUSPENDED, trackerSchedule } from "../services/vaults/anki-schedule";
import type { AnkiDeck, AnkiReview } from "../services/vaults/read-anki";
import { readAnkiPackageFile } from "../services/vaults/read-anki";
import { VaultImportError } from "../services/vaults/read-zip";
import { insertImportedTrackers } from "../store/memory/memory-import";
import { insertLogRows, logAssimilation } from "../store/memory/trackers";
import { insertLastChildren } from "../store/notes/insert-note";
import { importedNotebook } from "../store/notes/notes-import";
import {
  dropUnusedImages,
  finish,
  forgetPending,
  publishNotes,
  publishTrackers,
  recordPending,
} from "../store/operations/operations-store";
import type { DatabasePlace } from "../workers/database";
import { PendingWrites } from "./pending-writes";

export interface AnkiImportInput {
  /** Where the server's database is: the worker opens its own Database there. */
  database: DatabasePlace;
  operationId: number;
  path: string;
  /** The notebook's title when the deck has several top decks. */
  name: string;
  user: CurrentUser["user"];
  intervals: number[];
  fsrs: boolean;
  withReviewState: boolean;
  now: Date;
}

export async function importAnkiDeckInWorker(input: AnkiImportInput): Promise<AnkiImportReport> {
  const writes = await PendingWrites.open(input.database, input.operationId, input.now);
  try {
    return await importDeck(writes, input);
  } catch (error) {
    await writes.removeAll();
    throw error;
  } finally {
    await writes.close();
  }
}

type TrackerValue = typeof memoryTrackers.$inferInsert;

async function importDeck(writes: PendingWrites, input: AnkiImportInput) {
  const { now } = writes;
  const userId = input.user.id;
  writes.progress("reading", 0, undefined, true);
  const deck = await readAnkiPackageFile(input.path, input.name, now, (image) => writes.storeImage(userId, image));
  if (deck.noteCount === 0) throw new VaultImportError("the deck has no notes");

  const report: Omit<AnkiImportReport, "noteId"> = { created: 0, images: 0, trackers: 0, reviews: 0, skipped: deck.skipped };
  let total = 1;
  const count = (d: AnkiDeck): number => d.notes.length + d.children.length + d.children.reduce((n, c) => n + count(c), 0);
  total += count(deck.root);
  writes.progress("writing", 0, total, true);

  // The notebook and its head note, hidden (deleted) until published: no list shows it meanwhile.
  const { operationId } = input;
  const head = await writes.batch(function* (s) {
    const row = yield* importedNotebook(s, userId, deck.root.title, now);
    yield* recordPending(s, operationId, "notebook", [row.notebookId]);
    yield* recordPending(s, operationId, "note", [row.id]);
    return row;
  });
  let written = 1;

  const usedImages = new Set<number>();
  const trackerValues: TrackerValue[] = [];
  /** For each tracker value: the reviews to log after its assimilation, and whether it goes into recall. */
  const trackerReviews: AnkiReview[][] = [];
  const trackerActive: boolean[] = [];

  /** A deck's notes, then its sub-decks, under `parent`, in batches; then each sub-deck's. */
  const place = async (source: AnkiDeck, parent: NoteRow) => {
    const items = [
      ...source.notes.map((note) => {
        if (note.image) usedImages.add(note.image.imageId);
        return {
          parent,
          columns: {
            title: note.title,
            details: note.details,
            imageId: note.image?.imageId ?? null,
            // A cloze note is recalled by spelling its answer (spelling/cloze-answer.ts).
            rememberSpelling: !!note.clozeAnswer,
            // Suspended in Anki: out of assimilation and recall here too.
            skipMemoryTracking: note.card?.queue === SUSPENDED,
            deletedAt: now,
          },
        };
      }),
      ...source.children.map((child) => ({ parent, columns: { title: child.title, deletedAt: now } })),
    ];
    const rows = await writes.inBatches(
      items,
      function* (s, batch) {
        const inserted = yield* insertLastChildren(s, now, batch);
        yield* recordPending(
          s,
          operationId,
          "note",
          inserted.map((row) => row.id),
        );
        return inserted;
      },
      (n) => {
        written += n;
        writes.progress("writing", written, total);
      },
    );
    report.created += rows.length;
    source.notes.forEach((note, i) => {
      if (note.image) report.images++;
      if (!input.withReviewState || !isLearned(note.card)) return;
      const schedule = trackerSchedule(note.card, now, input.intervals, input.fsrs);
      // As assimilation does: a note that remembers spelling gets a spelling tracker too, on the same
      // schedule; the card's reviews go to the tracker that asks what the card asked.
      const kinds = note.clozeAnswer ? [false, true] : [false];
      for (const spelling of kinds) {
        // Out of recall until published (removed from tracking); publishing puts back the ones Anki had not suspended.
        trackerValues.push({ userId, noteId: rows[i]!.id, spelling, ...schedule, removedFromTracking: true });
        trackerActive.push(!schedule.removedFromTracking);
        trackerReviews.push(spelling === !!note.clozeAnswer ? note.card.reviews.slice(1) : []);
      }
    });
    for (const [i, child] of source.children.entries()) await place(child, rows[source.notes.length + i]!);
  };
  await place(deck.root, head);

  // Trackers with their assimilation and review history, a batch of trackers per transaction.
  const current = { user: input.user } as CurrentUser;
  const indexes = trackerValues.map((_, i) => i);
  writes.progress("writing", 0, indexes.length, true);
  let trackersWritten = 0;
  await writes.inBatches(
    indexes,
    function* (s, batch) {
      const rows = yield* insertImportedTrackers(
        s,
        batch.map((i) => trackerValues[i]!),
      );
      yield* recordPending(
        s,
        operationId,
        "tracker",
        rows.map((row) => row.id),
      );
      const active = rows.filter((_, k) => trackerActive[batch[k]!]);
      yield* recordPending(
        s,
        operationId,
        "activate",
        active.map((row) => row.id),
      );
      yield* logAssimilation(
        s,
        userId,
        active.map((row) => ({ ...row, removedFromTracking: false })),
        assimilationState(current),
      );
      for (const [k, row] of rows.entries()) {
        const reviews = trackerReviews[batch[k]!]!;
        if (reviews.length === 0) continue;
        yield* insertLogRows(
          s,
          importedReviewRows(
            userId,
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
          ),
        );
        report.reviews += reviews.length;
      }
      report.trackers += rows.length;
      return rows;
    },
    (n) => {
      trackersWritten += n;
      writes.progress("writing", trackersWritten, indexes.length);
    },
  );

  writes.progress("publishing", total, total, true);
  const full: AnkiImportReport = { noteId: head.id, ...report };
  await writes.publish(function* (s) {
    yield* publishNotes(s, operationId);
    yield* publishTrackers(s, operationId);
    yield* dropUnusedImages(s, operationId, usedImages);
    yield* forgetPending(s, operationId);
    if (!(yield* finish(s, operationId, full, writes.clock()))) throw new VaultImportError("the import was stopped");
  });
  return full;
}
