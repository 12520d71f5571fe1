/**
 * What the triggers derive, the same on both databases: each family's rows written with plain
 * inserts and updates (as any code path would), the derived rows read back.
 */
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { all, one, run, type Session, type Step } from "../../src/store/session";
import { databaseUnderTestOfFile } from "../support/database-under-test";
import { cacheVersion, conversation, note, notebook, tracker, user } from "./seed";

const under = databaseUnderTestOfFile();

const write = <T>(body: (s: Session) => Step<T>) => under.database.write(body);
const read = <T>(body: (s: Session) => Step<T>) => under.database.read(body);
const BUCKET = 900_000;

describe("cache versions", () => {
  test("a user, a notebook, a note, a subscription and a session raise their own scopes' versions only", async () => {
    const ann = await write((s) => user(s, "cv-ann"));
    const bob = await write((s) => user(s, "cv-bob"));
    const versions = (userId: number, accountId: number, notebookId?: number) =>
      read(function* (s) {
        return {
          account: yield* cacheVersion(s, "account", accountId),
          access: yield* cacheVersion(s, "user-access", userId),
          learning: yield* cacheVersion(s, "user-learning", userId),
          notebook: notebookId === undefined ? 0 : yield* cacheVersion(s, "notebook", notebookId),
        };
      });
    const annStart = await versions(ann.userId, ann.accountId);
    expect(annStart.account).toBeGreaterThan(0);
    expect(annStart.learning).toBeGreaterThan(0);
    const { notebookId, headNoteId } = await write((s) => notebook(s, ann.userId));
    const annBook = await versions(ann.userId, ann.accountId, notebookId);
    expect(annBook.access).toBeGreaterThan(annStart.access);
    expect(annBook.notebook).toBeGreaterThan(0);
    const bobBefore = await versions(bob.userId, bob.accountId, notebookId);
    await write((s) => note(s, notebookId, headNoteId, "child"));
    expect((await versions(ann.userId, ann.accountId, notebookId)).notebook).toBeGreaterThan(annBook.notebook);
    await write(function* (s) {
      yield* run(s, s.db.insert(s.t.subscriptions).values({ userId: bob.userId, notebookId, createdAt: new Date(0) }));
    });
    const bobAfter = await versions(bob.userId, bob.accountId, notebookId);
    expect(bobAfter.access).toBeGreaterThan(bobBefore.access);
    expect(bobAfter.learning).toBeGreaterThan(bobBefore.learning);
    expect(bobAfter.account).toBe(bobBefore.account);
    const annNow = await versions(ann.userId, ann.accountId, notebookId);
    await write(function* (s) {
      yield* run(s, s.db.insert(s.t.sessions).values({ id: "cv-session", accountId: bob.accountId, expiresAt: new Date(1) }));
    });
    expect((await versions(bob.userId, bob.accountId)).account).toBeGreaterThan(bobAfter.account);
    expect(await versions(ann.userId, ann.accountId, notebookId)).toEqual(annNow);
    // The badges' token moves with the notebook's version.
    const token = await under.stores.cacheVersions.badgesToken(bob.userId, [notebookId]);
    expect(await under.stores.cacheVersions.badgesToken(bob.userId, [notebookId])).toEqual(token);
    await write((s) => note(s, notebookId, headNoteId, "another"));
    const moved = await under.stores.cacheVersions.badgesToken(bob.userId, [notebookId]);
    expect([moved.learning === token.learning, moved.reviews === token.reviews]).toEqual([false, false]);
    expect(await under.stores.cacheVersions.version("notebook", notebookId)).toBe(
      (await versions(ann.userId, ann.accountId, notebookId)).notebook,
    );
  });

  test("a message raises the learning version of each party of its conversation", async () => {
    const ann = await write((s) => user(s, "msg-ann"));
    const cy = await write((s) => user(s, "msg-cy"));
    const conversationId = await write((s) => conversation(s, ann.userId, cy.userId));
    const learning = () =>
      read(function* (s) {
        return [yield* cacheVersion(s, "user-learning", ann.userId), yield* cacheVersion(s, "user-learning", cy.userId)];
      });
    const before = await learning();
    await write(function* (s) {
      yield* run(
        s,
        s.db.insert(s.t.conversationMessages).values({ conversationId, senderUserId: ann.userId, message: "hi", createdAt: new Date(0) }),
      );
    });
    const after = await learning();
    expect(after[0]).toBe(before[0]! + 1);
    expect(after[1]).toBe(before[1]! + 1);
  });
});

describe("the versions of a user's reviews", () => {
  test("a review raises the user's recall version only; any other change to a tracker raises the learning version", async () => {
    const ann = await write((s) => user(s, "cv-review"));
    const { notebookId, headNoteId } = await write((s) => notebook(s, ann.userId));
    const trackerId = await write((s) => tracker(s, ann.userId, headNoteId, 10 * BUCKET));
    const tokens = () => under.stores.cacheVersions.badgesToken(ann.userId, [notebookId]);
    const update = (values: Record<string, unknown>) =>
      write((s) => run(s, s.db.update(s.t.memoryTrackers).set(values).where(eq(s.t.memoryTrackers.id, trackerId))));
    const before = await tokens();
    // A review: the schedule moves.
    await update({ lastRecalledAt: new Date(BUCKET), nextRecallAt: new Date(20 * BUCKET), repetitionCount: 1, stability: 2 });
    const reviewed = await tokens();
    expect(reviewed.learning).toBe(before.learning);
    expect(reviewed.reviews).not.toBe(before.reviews);
    // Removed from tracking: both move (the Assimilate badge counts what is tracked).
    await update({ removedFromTracking: true });
    const removed = await tokens();
    expect(removed.learning).not.toBe(reviewed.learning);
    expect(removed.reviews).not.toBe(reviewed.reviews);
  });
});

describe("learning counters", () => {
  test("a note is an assimilation candidate until tracked; active trackers are counted", async () => {
    const ann = await write((s) => user(s, "lc-ann"));
    const { notebookId, headNoteId } = await write((s) => notebook(s, ann.userId, "Head", 5000));
    const noteId = await write((s) => note(s, notebookId, headNoteId, "Fact", 7000));
    const candidates = () =>
      read((s) =>
        all(
          s,
          s.db
            .select({ noteId: s.t.assimilationCandidates.noteId, createdAt: s.t.assimilationCandidates.createdAt })
            .from(s.t.assimilationCandidates)
            .where(eq(s.t.assimilationCandidates.userId, ann.userId))
            .orderBy(s.t.assimilationCandidates.noteId),
        ),
      );
    const active = () =>
      read(function* (s) {
        const row = yield* one(s, s.db.select().from(s.t.userTrackerCounts).where(eq(s.t.userTrackerCounts.userId, ann.userId)));
        return row?.activeTrackers ?? 0;
      });
    expect(await candidates()).toEqual([
      { noteId: headNoteId, createdAt: 5000 },
      { noteId, createdAt: 7000 },
    ]);
    const trackerId = await write((s) => tracker(s, ann.userId, noteId, 10 * BUCKET));
    expect((await candidates()).map((c) => c.noteId)).toEqual([headNoteId]);
    expect(await active()).toBe(1);
    await write((s) =>
      run(s, s.db.update(s.t.memoryTrackers).set({ removedFromTracking: true }).where(eq(s.t.memoryTrackers.id, trackerId))),
    );
    expect(await active()).toBe(0);
    await write((s) => run(s, s.db.delete(s.t.memoryTrackers).where(eq(s.t.memoryTrackers.id, trackerId))));
    expect((await candidates()).map((c) => c.noteId)).toEqual([headNoteId, noteId]);
    await write((s) =>
      run(
        s,
        s.db
          .update(s.t.notes)
          .set({ deletedAt: new Date(1) })
          .where(eq(s.t.notes.id, noteId)),
      ),
    );
    expect((await candidates()).map((c) => c.noteId)).toEqual([headNoteId]);
  });
});

describe("the recall log", () => {
  test("recalls are aggregated per 15-minute bucket and per tracker; assimilations are not", async () => {
    const ann = await write((s) => user(s, "rl-ann"));
    const { headNoteId } = await write((s) => notebook(s, ann.userId));
    const trackerId = await write((s) => tracker(s, ann.userId, headNoteId, BUCKET));
    const log = (outcome: string, kind: string, at: number, trackerOf = trackerId) =>
      write((s) =>
        run(
          s,
          s.db
            .insert(s.t.recallLog)
            .values({ memoryTrackerId: trackerOf, userId: ann.userId, reviewedAt: new Date(at), kind, outcome, stateAfter: "{}" }),
        ),
      );
    await log("success", "assimilation", 3 * BUCKET + 1);
    await log("success", "multiple-choice", 3 * BUCKET + 5);
    await log("failure", "spelling", 3 * BUCKET + 10);
    await log("success", "self-review", 4 * BUCKET);
    const buckets = await read((s) =>
      all(
        s,
        s.db
          .select({ bucket: s.t.recallLogBuckets.bucket, recalls: s.t.recallLogBuckets.recalls, successes: s.t.recallLogBuckets.successes })
          .from(s.t.recallLogBuckets)
          .where(eq(s.t.recallLogBuckets.userId, ann.userId))
          .orderBy(s.t.recallLogBuckets.bucket),
      ),
    );
    expect(buckets).toEqual([
      { bucket: 3, recalls: 2, successes: 1 },
      { bucket: 4, recalls: 1, successes: 1 },
    ]);
    const counts = await read((s) =>
      one(s, s.db.select().from(s.t.recallLogTrackerCounts).where(eq(s.t.recallLogTrackerCounts.memoryTrackerId, trackerId))),
    );
    expect(counts).toEqual({ memoryTrackerId: trackerId, userId: ann.userId, successes: 2, failures: 1 });
  });

  test("a review of a tracker an operation holds is not aggregated", async () => {
    const ann = await write((s) => user(s, "rl-op"));
    const { notebookId, headNoteId } = await write((s) => notebook(s, ann.userId));
    const trackerId = await write((s) => tracker(s, ann.userId, headNoteId, BUCKET));
    await write(function* (s) {
      const [operation] = yield* all(
        s,
        s.db
          .insert(s.t.operations)
          .values({
            kind: "anki-import",
            userId: ann.userId,
            notebookId,
            status: "running",
            leaseUntil: Date.now(),
            createdAt: new Date(0),
            updatedAt: new Date(0),
          })
          .returning({ id: s.t.operations.id }),
      );
      yield* run(s, s.db.insert(s.t.operationRows).values({ operationId: operation!.id, kind: "tracker", rowId: trackerId }));
      yield* run(
        s,
        s.db.insert(s.t.recallLog).values({
          memoryTrackerId: trackerId,
          userId: ann.userId,
          reviewedAt: new Date(0),
          kind: "anki",
          outcome: "success",
          stateAfter: "{}",
        }),
      );
    });
    const buckets = await read((s) => all(s, s.db.select().from(s.t.recallLogBuckets).where(eq(s.t.recallLogBuckets.userId, ann.userId))));
    expect(buckets).toEqual([]);
  });

  test("is never edited", async () => {
    const ann = await write((s) => user(s, "rl-edit"));
    const { headNoteId } = await write((s) => notebook(s, ann.userId));
    const trackerId = await write((s) => tracker(s, ann.userId, headNoteId, BUCKET));
    await write((s) =>
      run(
        s,
        s.db.insert(s.t.recallLog).values({
          memoryTrackerId: trackerId,
          userId: ann.userId,
          reviewedAt: new Date(0),
          kind: "spelling",
          outcome: "success",
          stateAfter: "{}",
        }),
      ),
    );
    const edit = write((s) =>
      run(s, s.db.update(s.t.recallLog).set({ outcome: "failure" }).where(eq(s.t.recallLog.memoryTrackerId, trackerId))),
    );
    await expect(edit).rejects.toThrow(/the recall log is never edited/);
  });
});
