/**
 * Bodies that read and then write what depends on what they read, run several at once through two
 * Databases (two pools, as two processes would have). On SQLite a write unit is the only writer;
 * on PostgreSQL (READ COMMITTED) each must lock what it depends on, or two units both read the
 * same state and both write from it.
 */
import { describe, expect, test } from "bun:test";
import { and, eq, isNotNull, isNull } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { createStores, type Stores } from "../../src/store";
import type { Database } from "../../src/store/database";
import type { AnswerKeyRecord, MemoryTrackerRow, ReviewPlanner } from "../../src/store/memory/memory-store";
import { insertNote } from "../../src/store/notes/insert-note";
import { showHiddenNotes } from "../../src/store/notes/notes-import";
import type { PostgresDatabase } from "../../src/store/postgres-database";
import { all, one, run, type Session, type Step } from "../../src/store/session";
import { databaseUnderTestOfFile } from "../support/database-under-test";
import { untilLockWaiters } from "../support/lock-waiters";
import { account, note, notebook, tracker, user } from "./seed";

const under = databaseUnderTestOfFile();
const PARALLEL = 8;

/** Another Database on the same data (its own pool, as a second process would have), one for the file. */
let other: Promise<Database> | undefined;
const anotherDatabase = (): Promise<Database> => {
  other ??= under.another();
  return other;
};

/** The stores of the database under test and of another Database on the same data, alternately. */
async function twoWriters(): Promise<Stores[]> {
  return [under.stores, createStores(await anotherDatabase())];
}

/** A review that counts one more repetition than the tracker had when the unit read it. */
const oneMore: ReviewPlanner = (row: MemoryTrackerRow) => ({
  schedule: {
    forgettingCurveIndex: row.forgettingCurveIndex,
    lastRecalledAt: new Date(1000 + row.repetitionCount),
    nextRecallAt: row.nextRecallAt,
    repetitionCount: row.repetitionCount + 1,
    stability: row.stability,
    difficulty: row.difficulty,
  },
  log: { reviewedAt: new Date(1000), kind: "self-review", outcome: "success", stateAfter: "{}" },
});

function* reviewsOf(s: Session, trackerId: number): Step<number> {
  const l = s.t.recallLog;
  const rows = yield* all(
    s,
    s.db
      .select({ id: l.id })
      .from(l)
      .where(and(eq(l.memoryTrackerId, trackerId), eq(l.kind, "self-review"))),
  );
  return rows.length;
}

/** A learner with a note of their own and a tracker of it. */
async function learnerWithTracker(name: string): Promise<{ userId: number; noteId: number; trackerId: number }> {
  return under.database.write(function* (s) {
    const { userId } = yield* user(s, name);
    const { notebookId, headNoteId } = yield* notebook(s, userId);
    const noteId = yield* note(s, notebookId, headNoteId, `${name}'s note`);
    return { userId, noteId, trackerId: yield* tracker(s, userId, noteId, 0) };
  });
}

describe("memory trackers", () => {
  test("reviews of one tracker at once each count: none is lost", async () => {
    const stores = await twoWriters();
    const { userId, trackerId } = await learnerWithTracker("ann");
    const results = await Promise.all(Array.from({ length: PARALLEL }, (_, i) => stores[i % 2]!.memory.repeat(userId, trackerId, oneMore)));
    expect(results.every((result) => result.status === "reviewed")).toBe(true);
    expect((await under.stores.memory.tracker(trackerId))!.repetitionCount).toBe(PARALLEL);
    expect(await under.database.read((s) => reviewsOf(s, trackerId))).toBe(PARALLEL);
  });

  test("reviews while the user's trackers are converted to another scheduler are kept", async () => {
    const stores = await twoWriters();
    const { userId, trackerId } = await learnerWithTracker("rex");
    // A conversion rewrites the schedule from the tracker as it read it.
    const convert = (row: MemoryTrackerRow) => ({ repetitionCount: row.repetitionCount, nextRecallAt: row.nextRecallAt });
    await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        i % 2 === 0
          ? stores[i % 2]!.users.updateSettings(userId, { name: "Rex" }, () => ({ to: "fsrs", convert }))
          : stores[i % 2]!.memory.repeat(userId, trackerId, oneMore),
      ),
    );
    expect((await under.stores.memory.tracker(trackerId))!.repetitionCount).toBe(PARALLEL / 2);
  });

  test("one answer key sent several times at once is applied once, the others told it is recorded", async () => {
    const stores = await twoWriters();
    const { userId, trackerId } = await learnerWithTracker("bob");
    const key: AnswerKeyRecord = { key: "answer-1", answeredAt: new Date(1000), appliedAt: new Date(1000), outcome: { successful: true } };
    const results = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) => stores[i % 2]!.memory.repeat(userId, trackerId, oneMore, key)),
    );
    expect(results.filter((result) => result.status === "reviewed")).toHaveLength(1);
    expect(results.filter((result) => result.status === "already-recorded")).toHaveLength(PARALLEL - 1);
    expect((await under.stores.memory.tracker(trackerId))!.repetitionCount).toBe(1);
  });

  test("one offline answer sent several times at once is applied once, the others answer its stored outcome", async () => {
    const stores = await twoWriters();
    const { userId, trackerId } = await learnerWithTracker("cat");
    const key = { key: "offline-1", trackerId, answeredAt: new Date(500), appliedAt: new Date(2000) };
    const results = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        stores[i % 2]!.memory.applyOfflineAnswer(userId, key, { apply: { correct: true, plan: oneMore } }),
      ),
    );
    expect(results.every((outcome) => outcome.status === "applied")).toBe(true);
    expect((await under.stores.memory.tracker(trackerId))!.repetitionCount).toBe(1);
    expect(await under.database.read((s) => reviewsOf(s, trackerId))).toBe(1);
  });

  test("offline answers of one tracker at once: the first is applied, the others come after it", async () => {
    const stores = await twoWriters();
    const { userId, trackerId } = await learnerWithTracker("dan");
    const results = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        stores[i % 2]!.memory.applyOfflineAnswer(
          userId,
          { key: `offline-${i}`, trackerId, answeredAt: new Date(500), appliedAt: new Date(2000) },
          { apply: { correct: true, plan: oneMore } },
        ),
      ),
    );
    // The first applied moves the tracker's last recall past the others' moment: they come later.
    expect(results.filter((outcome) => outcome.status === "applied")).toHaveLength(1);
    expect(results.filter((outcome) => outcome.status === "answered-later")).toHaveLength(PARALLEL - 1);
    expect(await under.database.read((s) => reviewsOf(s, trackerId))).toBe(1);
  });

  test("one question's answer key sent several times at once is applied once, the others told it is recorded", async () => {
    const stores = await twoWriters();
    const { userId, noteId, trackerId } = await learnerWithTracker("fay");
    const question = { multipleChoicesQuestion: "{}", correctAnswerIndex: 0, approved: false, contested: false };
    const { prompt } = await under.stores.recallPrompts.savePrompt(userId, trackerId, noteId, [question], new Date(0));
    const key: AnswerKeyRecord = { key: "choice-1", answeredAt: new Date(1000), appliedAt: new Date(1000), outcome: { correct: true } };
    const answer = { choiceIndex: 0, correct: true, at: new Date(1000) };
    const results = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) => stores[i % 2]!.recallPrompts.answerPrompt(userId, prompt.id, answer, oneMore, key)),
    );
    expect(results.filter((result) => result.status === "answered")).toHaveLength(1);
    expect(results.filter((result) => result.status === "already-recorded")).toHaveLength(PARALLEL - 1);
    expect((await under.stores.memory.tracker(trackerId))!.repetitionCount).toBe(1);
  });

  test("one note assimilated several times at once gets its trackers once, the others told it is assimilated", async () => {
    const stores = await twoWriters();
    const { userId, noteId } = await under.database.write(function* (s) {
      const { userId } = yield* user(s, "eve");
      const { notebookId, headNoteId } = yield* notebook(s, userId);
      return { userId, noteId: yield* note(s, notebookId, headNoteId, "eve's note") };
    });
    const values = [false, true].map((spelling) => ({
      userId,
      noteId,
      spelling,
      assimilatedAt: new Date(0),
      lastRecalledAt: new Date(0),
      nextRecallAt: new Date(0),
    }));
    const results = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) => stores[i % 2]!.memory.assimilate(userId, noteId, values, () => "{}")),
    );
    expect(results.filter((rows) => rows !== null)).toHaveLength(1);
    expect(results.filter((rows) => rows === null)).toHaveLength(PARALLEL - 1);
  });
});

describe("notes", () => {
  test("edits of one note's details at once each build on the one before: none is lost", async () => {
    const stores = await twoWriters();
    const { noteId } = await learnerWithTracker("gus");
    await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        stores[i % 2]!.notes.saveText(noteId, "details", undefined, (current) => `${current.details ?? ""}${i}`, new Date(1000)),
      ),
    );
    const details = (await under.stores.notes.noteById(noteId))!.details ?? "";
    expect([...details].sort().join("")).toBe("01234567");
  });
});

describe("sibling order", () => {
  test("notes placed at once after a notebook's head note each get an order of their own", async () => {
    const stores = await twoWriters();
    const { notebookId, headNoteId } = await under.database.write(function* (s) {
      const { userId } = yield* user(s, "ross");
      return yield* notebook(s, userId);
    });
    const head = (await under.stores.notes.noteById(headNoteId))!;
    await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) => stores[i % 2]!.notes.addNote(new Date(1000), { after: head }, { title: `head ${i}` })),
    );
    const heads = await under.database.read((s) =>
      all(
        s,
        s.db
          .select({ siblingOrder: s.t.notes.siblingOrder })
          .from(s.t.notes)
          .where(and(eq(s.t.notes.notebookId, notebookId), isNull(s.t.notes.parentId))),
      ),
    );
    expect(new Set(heads.map((row) => row.siblingOrder)).size).toBe(PARALLEL + 1);
  });
});

describe("imports", () => {
  test("an import published while the note its new notes go under is deleted: they go with that deletion", async () => {
    const { parentId, newId } = await under.database.write(function* (s) {
      const { userId } = yield* user(s, "tess");
      const { notebookId, headNoteId } = yield* notebook(s, userId);
      const parentId = yield* note(s, notebookId, headNoteId, "existing");
      const newId = yield* note(s, notebookId, parentId, "imported");
      // Hidden (deleted) until the import publishes it.
      yield* run(
        s,
        s.db
          .update(s.t.notes)
          .set({ deletedAt: new Date(1) })
          .where(eq(s.t.notes.id, newId)),
      );
      return { parentId, newId };
    });
    const other = await anotherDatabase();
    const publishing = () => other.write((s) => showHiddenNotes(s, [newId]));
    const deletedAt = new Date(3000);
    if (under.dialect === "postgres") {
      // The deletion's update, not committed yet: the existing note deleted, the hidden one left as it is.
      const database = under.database as PostgresDatabase;
      let published: Promise<unknown> | undefined;
      await database.client.begin(async (tx) => {
        await tx`UPDATE notes SET deleted_at = ${deletedAt}, deletion_root_id = ${parentId} WHERE id = ${parentId}`;
        published = publishing();
        await Promise.race([published, untilLockWaiters(database, 1)]);
      });
      await published;
    } else {
      await Promise.all([under.stores.notes.softDeleteSubtree(parentId, deletedAt), publishing()]);
    }
    const shown = (await under.stores.notes.noteById(newId))!;
    expect({ deletedAt: shown.deletedAt, root: shown.deletionRootId }).toEqual({ deletedAt, root: parentId });
  });
});

describe("a note added while its parent's subtree is deleted", () => {
  /** A head note with a child, and a new note about to be added under that child. */
  async function subtree(name: string) {
    return under.database.write(function* (s) {
      const { userId } = yield* user(s, name);
      const { notebookId, headNoteId } = yield* notebook(s, userId);
      const rootId = yield* note(s, notebookId, headNoteId, "root");
      const childId = yield* note(s, notebookId, rootId, "child");
      return { notebookId, rootId, childId };
    });
  }

  /** Runs the two, in this order, queued behind a lock of the child (PostgreSQL), or at once (SQLite). */
  async function inTurn(childId: number, first: () => Promise<unknown>, second: () => Promise<unknown>) {
    if (under.dialect !== "postgres") return Promise.all([first(), second()]);
    const database = under.database as PostgresDatabase;
    const started: Promise<unknown>[] = [];
    await database.client.begin(async (tx) => {
      await tx`SELECT id FROM notes WHERE id = ${childId} FOR UPDATE`;
      started.push(first());
      await untilLockWaiters(database, 1);
      started.push(second());
      await untilLockWaiters(database, 2);
    });
    return Promise.all(started);
  }

  /** Live notes whose parent is deleted: none may be left. */
  const liveUnderDeleted = (notebookId: number) =>
    under.database.read((s) => {
      const parent = alias(s.t.notes, "parent");
      return all(
        s,
        s.db
          .select({ id: s.t.notes.id })
          .from(s.t.notes)
          .innerJoin(parent, eq(parent.id, s.t.notes.parentId))
          .where(and(eq(s.t.notes.notebookId, notebookId), isNull(s.t.notes.deletedAt), isNotNull(parent.deletedAt))),
      );
    });

  for (const order of ["added first", "deleted first"] as const) {
    test(`${order}: the new note goes with the deletion`, async () => {
      const { notebookId, rootId, childId } = await subtree(`sub ${order}`);
      const other = await anotherDatabase();
      const add = () => other.write((s) => insertNote(s, new Date(2000), { lastChildOf: { id: childId, notebookId } }, { title: "new" }));
      const remove = () => under.stores.notes.softDeleteSubtree(rootId, new Date(3000));
      await (order === "added first" ? inTurn(childId, add, remove) : inTurn(childId, remove, add));
      expect(await liveUnderDeleted(notebookId)).toEqual([]);
    });
  }
});

describe("note images", () => {
  test("images uploaded to one note at once leave no image that no note shows", async () => {
    const stores = await twoWriters();
    const { userId, noteId } = await learnerWithTracker("quin");
    await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        stores[i % 2]!.notes.updateAccessories(
          noteId,
          { columns: {}, upload: { userId, contentType: "image/png", bytes: new Uint8Array([i]) } },
          new Date(1000),
        ),
      ),
    );
    const images = await under.database.read((s) => all(s, s.db.select({ id: s.t.noteImages.id }).from(s.t.noteImages)));
    expect(images.map((image) => image.id)).toEqual([(await under.stores.notes.noteById(noteId))!.imageId!]);
  });
});

describe("Wikidata", () => {
  test("a description fetched for a note while its details are saved keeps both", async () => {
    const stores = await twoWriters();
    const { noteId } = await learnerWithTracker("oli");
    await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        i % 2 === 0
          ? stores[0]!.notes.saveText(noteId, "details", undefined, (current) => `${current.details ?? ""}${i}`, new Date(1000))
          : stores[1]!.notes.applyEnrichment(noteId, { wikidataId: `Q${i}`, description: `${i}`, subNotes: [] }, new Date(1000)),
      ),
    );
    const details = (await under.stores.notes.noteById(noteId))!.details ?? "";
    expect([...details.replaceAll("\n", "")].sort().join("")).toBe("01234567");
  });

  test("one Wikidata entity given to two notes of a notebook at once goes to one of them", async () => {
    const stores = await twoWriters();
    const noteIds = await under.database.write(function* (s) {
      const { userId } = yield* user(s, "pam");
      const { notebookId, headNoteId } = yield* notebook(s, userId);
      const ids: number[] = [];
      for (let i = 0; i < PARALLEL; i++) ids.push(yield* note(s, notebookId, headNoteId, `note ${i}`, 0, 1024 * (i + 1)));
      return ids;
    });
    const duplicate = (): never => {
      throw new Error("duplicate");
    };
    const results = await Promise.allSettled(
      noteIds.map((noteId, i) => stores[i % 2]!.notes.setWikidataId(noteId, "Q42", undefined, new Date(1000), () => {}, duplicate)),
    );
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    const given = await Promise.all(noteIds.map((noteId) => under.stores.notes.noteById(noteId)));
    expect(given.filter((row) => row!.wikidataId === "Q42")).toHaveLength(1);
  });
});

describe("subscriptions", () => {
  test("subscribing to one notebook several times at once subscribes once, the others told it exists", async () => {
    const stores = await twoWriters();
    const { notebookId, readerId } = await under.database.write(function* (s) {
      const { userId: ownerId } = yield* user(s, "hal");
      const { notebookId } = yield* notebook(s, ownerId);
      return { notebookId, readerId: (yield* user(s, "ivy")).userId };
    });
    const results = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) => stores[i % 2]!.sharing.subscribe(readerId, notebookId, 5, new Date(0))),
    );
    expect(results.filter((row) => row !== "exists")).toHaveLength(1);
    expect(results.filter((row) => row === "exists")).toHaveLength(PARALLEL - 1);
  });
});

describe("assessments", () => {
  async function attemptOf(name: string, questions: number) {
    const { userId, noteId } = await learnerWithTracker(name);
    const notebookId = (await under.stores.notes.noteById(noteId))!.notebookId;
    const question = { multipleChoicesQuestion: "{}", correctAnswerIndex: 0, approved: true, contested: false };
    const rows = [];
    for (let i = 0; i < questions; i++) rows.push(await under.stores.recallPrompts.insertQuestion(noteId, question, new Date(0)));
    return under.stores.assessments.startAttempt(userId, notebookId, rows, new Date(0));
  }

  test("questions of one attempt answered right at once each count: none is lost", async () => {
    const stores = await twoWriters();
    const { attempt, instances } = await attemptOf("jon", PARALLEL);
    await Promise.all(instances.map((instance, i) => stores[i % 2]!.assessments.answerQuestion(instance.id, 0, true, new Date(1000))));
    expect((await under.stores.assessments.attempt(attempt.id))!.answersCorrect).toBe(PARALLEL);
  });

  test("an attempt submitted several times at once is submitted once", async () => {
    const stores = await twoWriters();
    const { attempt } = await attemptOf("kim", 1);
    const results = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        stores[i % 2]!.assessments.submit(attempt.id, new Date(1000 + i), 0.5, () => new Date(9999)),
      ),
    );
    expect(results.filter((row) => row !== undefined)).toHaveLength(1);
  });
});

describe("AI runs", () => {
  test("AI replies asked at once in a conversation without a thread yet share one new thread", async () => {
    const stores = await twoWriters();
    const { userId } = await learnerWithTracker("lou");
    const conversation = await under.stores.conversations.start(
      { initiatorUserId: userId, ownerUserId: userId, ownerCircleId: null },
      "hello",
      new Date(0),
    );
    const started = await Promise.all(Array.from({ length: PARALLEL }, (_, i) => stores[i % 2]!.aiRuns.start(conversation.id, 1000 + i)));
    expect(new Set(started.map(({ thread }) => thread.id)).size).toBe(1);
  });
});

describe("accounts and profiles", () => {
  test("a profile created several times at once is created once, the others told it exists", async () => {
    const stores = await twoWriters();
    const accountId = await under.database.write((s) => account(s, "max"));
    const results = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) => stores[i % 2]!.users.createProfile(accountId, "Max", new Date(0))),
    );
    expect(results.filter((row) => row !== "exists")).toHaveLength(1);
    expect(results.filter((row) => row === "exists")).toHaveLength(PARALLEL - 1);
  });

  test("an account made admin and disabled at once keeps both changes", async () => {
    const stores = await twoWriters();
    for (let round = 0; round < 4; round++) {
      const target = await under.database.write(function* (s) {
        // Another enabled admin, so that the target is never the last one.
        const other = yield* account(s, `otto-${round}`);
        yield* run(s, s.db.update(s.t.accounts).set({ admin: true }).where(eq(s.t.accounts.id, other)));
        return yield* account(s, `opal-${round}`);
      });
      // Each change writes both fields: from the account as it read it, it would undo the other.
      await Promise.all(
        Array.from({ length: PARALLEL }, (_, i) =>
          stores[i % 2]!.accounts.changeAccount(target, i % 2 === 0 ? { admin: true } : { disabled: true }, new Date(0)),
        ),
      );
      const row = await under.database.read((s) => one(s, s.db.select().from(s.t.accounts).where(eq(s.t.accounts.id, target))));
      expect({ round, admin: row!.admin, disabled: row!.disabledAt !== null }).toEqual({ round, admin: true, disabled: true });
    }
  });

  test("a test identity ensured several times at once is one account", async () => {
    const stores = await twoWriters();
    const results = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) => stores[i % 2]!.accounts.ensureAccount("ned", false, new Date(0))),
    );
    expect(new Set(results.map((row) => row.id)).size).toBe(1);
  });
});
