/**
 * Counts and import bodies whose SQL each database says its own way: counts that PostgreSQL answers
 * as bigints (strings in JavaScript), and the review history an import publishes into the
 * statistics' aggregates (15-minute buckets from a timestamptz, outcomes counted without summing
 * booleans).
 */
import { expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { publishImportedTrackers } from "../../src/store/memory/memory-import";
import { all, run, type Session, type Step } from "../../src/store/session";
import { databaseUnderTestOfFile } from "../support/database-under-test";
import { note, notebook, tracker, user } from "./seed";

const under = databaseUnderTestOfFile();
const write = <T>(body: (s: Session) => Step<T>) => under.database.write(body);
const read = <T>(body: (s: Session) => Step<T>) => under.database.read(body);
const BUCKET = 900_000;

test("unread messages are counted as a number", async () => {
  const { ann, bob } = await write(function* (s) {
    return { ann: yield* user(s, "count-ann"), bob: yield* user(s, "count-bob") };
  });
  const conversation = await under.stores.conversations.start(
    { initiatorUserId: ann.userId, ownerUserId: bob.userId, ownerCircleId: null },
    "hello",
    new Date(0),
  );
  await write(function* (s) {
    yield* run(
      s,
      s.db
        .insert(s.t.conversationMessages)
        .values({ conversationId: conversation.id, senderUserId: ann.userId, message: "again", createdAt: new Date(1) }),
    );
  });
  expect(await under.stores.conversations.unreadCount(bob.userId)).toBe(2);
  expect(await under.stores.conversations.unreadCount(ann.userId)).toBe(0);
});

test("a note's undeleted descendants are counted as a number, links and deleted branches left out", async () => {
  const counted = await write(function* (s) {
    const { userId } = yield* user(s, "descendants-ann");
    const book = yield* notebook(s, userId);
    const a = yield* note(s, book.notebookId, book.headNoteId, "a");
    yield* note(s, book.notebookId, a, "a1");
    const gone = yield* note(s, book.notebookId, a, "gone");
    yield* note(s, book.notebookId, gone, "under gone");
    yield* run(
      s,
      s.db
        .update(s.t.notes)
        .set({ deletedAt: new Date(1) })
        .where(eq(s.t.notes.id, gone)),
    );
    yield* all(
      s,
      s.db
        .insert(s.t.notes)
        .values({
          notebookId: book.notebookId,
          parentId: a,
          targetNoteId: book.headNoteId,
          title: "link",
          siblingOrder: 1,
          createdAt: new Date(0),
          updatedAt: new Date(0),
        })
        .returning({ id: s.t.notes.id }),
    );
    return book.headNoteId;
  });
  expect(await under.stores.notes.undeletedDescendantCount(counted)).toBe(2);
});

test("publishing an import's trackers adds their reviews to the buckets, hours, per-tracker and per-notebook counts", async () => {
  const { userId, trackerId } = await write(function* (s) {
    const { userId } = yield* user(s, "import-ann");
    const book = yield* notebook(s, userId);
    const noteId = yield* note(s, book.notebookId, book.headNoteId, "imported");
    const trackerId = yield* tracker(s, userId, noteId, 10 * BUCKET);
    yield* run(s, s.db.update(s.t.memoryTrackers).set({ removedFromTracking: true }).where(eq(s.t.memoryTrackers.id, trackerId)));
    return { userId, trackerId };
  });
  // The reviews as an import writes them: the triggers count them as they come.
  const reviews: [number, string, string][] = [
    [2 * BUCKET + 5, "anki", "success"],
    [2 * BUCKET + 60_000, "anki", "failure"],
    [7 * BUCKET, "anki", "success"],
    [7 * BUCKET + 1, "assimilation", "success"],
    [8 * BUCKET, "anki", "+5"],
  ];
  await write(function* (s) {
    for (const [at, kind, outcome] of reviews) {
      yield* run(
        s,
        s.db
          .insert(s.t.recallLog)
          .values({ memoryTrackerId: trackerId, userId, reviewedAt: new Date(at), kind, outcome, stateAfter: "{}" }),
      );
    }
  });
  const aggregates = () =>
    read(function* (s) {
      const { recallLogBuckets: b, recallLogHours: h, recallLogTrackerCounts: c, recallLogNotebookCounts: g } = s.t;
      return {
        buckets: (yield* all(
          s,
          s.db.select({ bucket: b.bucket, recalls: b.recalls, successes: b.successes }).from(b).where(eq(b.userId, userId)),
        )).sort((x, y) => x.bucket - y.bucket),
        hours: (yield* all(
          s,
          s.db.select({ hour: h.hour, recalls: h.recalls, successes: h.successes }).from(h).where(eq(h.userId, userId)),
        )).sort((x, y) => x.hour - y.hour),
        notebook: yield* all(s, s.db.select({ successes: g.successes, failures: g.failures }).from(g).where(eq(g.userId, userId))),
        tracker: yield* all(
          s,
          s.db.select({ successes: c.successes, failures: c.failures }).from(c).where(eq(c.memoryTrackerId, trackerId)),
        ),
      };
    });
  const before = await aggregates();
  expect(before).toEqual({
    buckets: [
      { bucket: 2, recalls: 2, successes: 1 },
      { bucket: 7, recalls: 1, successes: 1 },
    ],
    hours: [
      { hour: 0, recalls: 2, successes: 1 },
      { hour: 1, recalls: 1, successes: 1 },
    ],
    notebook: [{ successes: 2, failures: 1 }],
    tracker: [{ successes: 2, failures: 1 }],
  });
  await write((s) => publishImportedTrackers(s, [trackerId], [trackerId]));
  // Published: its reviews counted once more (here on top of what the triggers counted), and in recall.
  expect(await aggregates()).toEqual({
    buckets: [
      { bucket: 2, recalls: 4, successes: 2 },
      { bucket: 7, recalls: 2, successes: 2 },
    ],
    hours: [
      { hour: 0, recalls: 4, successes: 2 },
      { hour: 1, recalls: 2, successes: 2 },
    ],
    notebook: [{ successes: 4, failures: 2 }],
    tracker: [{ successes: 4, failures: 2 }],
  });
  const [active] = await read((s) =>
    all(
      s,
      s.db.select({ removed: s.t.memoryTrackers.removedFromTracking }).from(s.t.memoryTrackers).where(eq(s.t.memoryTrackers.id, trackerId)),
    ),
  );
  expect(active).toEqual({ removed: false });
});
