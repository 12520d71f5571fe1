/**
 * What the triggers on notes and embeddings derive, and the stores that read it (binary index,
 * note revisions, the note-changes relay), the same on both databases.
 */
import { describe, expect, test } from "bun:test";
import { asc, eq } from "drizzle-orm";
import { noteChangesStore } from "../../src/store/note-changes/note-changes-store";
import { orderAfter, orderForFirstChild, orderForLastChild } from "../../src/store/notes/sibling-order";
import { all, run, type Session, type Step } from "../../src/store/session";
import { databaseUnderTestOfFile } from "../support/database-under-test";
import { note, notebook, tracker, user } from "./seed";

const under = databaseUnderTestOfFile();

const write = <T>(body: (s: Session) => Step<T>) => under.database.write(body);
const read = <T>(body: (s: Session) => Step<T>) => under.database.read(body);
const BUCKET = 900_000;

const float32 = (values: number[]) => Buffer.from(new Float32Array(values).buffer);

describe("semantic search bits", () => {
  test("an embedding's bits are one per dimension, set when positive, lowest bit first; every change is logged", async () => {
    const ann = await write((s) => user(s, "bits-ann"));
    const first = await write((s) => notebook(s, ann.userId));
    const second = await write((s) => notebook(s, ann.userId));
    const noteId = await write((s) => note(s, first.notebookId, first.headNoteId, "Embedded"));
    const { binaryIndex } = under.stores;
    const loaded = await binaryIndex.loadAll("m", 16);
    expect(loaded.rows).toEqual([]);
    const embedding = float32([1, -1, 0, 2, -0, 3, 0.5, -2, -1, -1, -1, -1, -1, -1, -1, 7]);
    await write((s) =>
      run(
        s,
        s.db.insert(s.t.noteEmbeddings).values({ noteId, model: "m", dimensions: 16, embedding, sourceHash: "h", updatedAt: new Date(0) }),
      ),
    );
    const { state, rows } = await binaryIndex.loadAll("m", 16);
    expect(rows.map((row) => ({ ...row, bits: Buffer.from(row.bits).toString("hex") }))).toEqual([
      { noteId, notebookId: first.notebookId, bits: "6980" },
    ]);
    expect(Buffer.isBuffer(rows[0]!.bits)).toBe(true);
    // The note moves to another notebook: its bits follow, and the change is logged.
    await write((s) => run(s, s.db.update(s.t.notes).set({ notebookId: second.notebookId }).where(eq(s.t.notes.id, noteId))));
    const moved = await binaryIndex.changesSince(state.generation, state.lastSeq, "m", 16, 100);
    expect(moved).toMatchObject({ kind: "changes", notes: [{ noteId, row: { noteId, notebookId: second.notebookId } }] });
    // Deleted: logged, with no row now.
    await write((s) => run(s, s.db.delete(s.t.noteEmbeddings).where(eq(s.t.noteEmbeddings.noteId, noteId))));
    const gone = await binaryIndex.changesSince(state.generation, moved.kind === "changes" ? moved.lastSeq : 0, "m", 16, 100);
    expect(gone).toMatchObject({ kind: "changes", notes: [{ noteId, row: null }] });
    expect(await binaryIndex.changesSince(state.generation, gone.kind === "changes" ? gone.lastSeq : 0, "m", 16, 100)).toEqual({
      kind: "current",
    });
    // A new generation: copies load whole.
    await binaryIndex.restartGeneration(state.generation + 1);
    expect(await binaryIndex.generation()).toBe(state.generation + 1);
    expect(await binaryIndex.changesSince(state.generation, 0, "m", 16, 100)).toEqual({ kind: "reload" });
    expect(await binaryIndex.prune(1)).toBeGreaterThan(0);
  });
});

describe("note text revisions", () => {
  test("every change of a title or details raises its revision and keeps its text", async () => {
    const ann = await write((s) => user(s, "rev-ann"));
    const { notebookId, headNoteId } = await write((s) => notebook(s, ann.userId));
    const noteId = await write((s) => note(s, notebookId, headNoteId, "One"));
    const setNote = (values: { title?: string; details?: string }) =>
      write((s) => run(s, s.db.update(s.t.notes).set(values).where(eq(s.t.notes.id, noteId))));
    await setNote({ title: "Two" });
    await setNote({ title: "Three", details: "d1" });
    await setNote({ title: "Three" }); // unchanged: no revision
    expect(await under.stores.noteRevisions.revisionsOf([noteId, 999_999])).toEqual([{ id: noteId, titleRevision: 2, detailsRevision: 1 }]);
    const texts = await read((s) =>
      all(
        s,
        s.db
          .select({ field: s.t.noteTextRevisions.field, revision: s.t.noteTextRevisions.revision, text: s.t.noteTextRevisions.text })
          .from(s.t.noteTextRevisions)
          .where(eq(s.t.noteTextRevisions.noteId, noteId))
          .orderBy(asc(s.t.noteTextRevisions.field), asc(s.t.noteTextRevisions.revision)),
      ),
    );
    expect(texts).toEqual([
      { field: "details", revision: 0, text: "" },
      { field: "details", revision: 1, text: "d1" },
      { field: "title", revision: 0, text: "One" },
      { field: "title", revision: 1, text: "Two" },
      { field: "title", revision: 2, text: "Three" },
    ]);
  });
});

describe("the note-changes outbox", () => {
  test("creating, editing, renaming, moving and restoring notes queue their embeddings (and their descendants') once", async () => {
    const { noteChanges, jobs } = under.stores;
    await noteChanges.discardAll();
    const ann = await write((s) => user(s, "out-ann"));
    const { notebookId, headNoteId } = await write((s) => notebook(s, ann.userId));
    const parent = await write((s) => note(s, notebookId, headNoteId, "Parent"));
    const child = await write((s) => note(s, notebookId, parent, "Child"));
    const grandchild = await write((s) => note(s, notebookId, child, "Grandchild"));
    // A link (a note with a target) is not embedded.
    await write((s) =>
      run(
        s,
        s.db.insert(s.t.notes).values({
          notebookId,
          parentId: headNoteId,
          targetNoteId: parent,
          title: "related",
          siblingOrder: 9,
          createdAt: new Date(0),
          updatedAt: new Date(0),
        }),
      ),
    );
    expect(await noteChanges.pending()).toBe(4);
    const relayed = async () => {
      expect(await noteChanges.relay({ embedKind: "embed", runAt: 0 }, 0)).toBeGreaterThan(0);
      const claimed = await jobs.claimDue(1, 60_000, () => 100);
      await jobs.complete(claimed);
      return claimed.map((job) => (JSON.parse(job.payload) as { noteId: number }).noteId).sort((a, b) => a - b);
    };
    expect(await relayed()).toEqual([headNoteId, parent, child, grandchild]);
    const update = (id: number, values: Record<string, unknown>) =>
      write((s) => run(s, s.db.update(s.t.notes).set(values).where(eq(s.t.notes.id, id))));
    await update(grandchild, { details: "new details" });
    expect(await relayed()).toEqual([grandchild]);
    await update(parent, { title: "Renamed" });
    expect(await relayed()).toEqual([parent, child, grandchild]);
    await update(child, { parentId: headNoteId });
    expect(await relayed()).toEqual([child, grandchild]);
    await update(child, { deletedAt: new Date(5) });
    expect(await noteChanges.pending()).toBe(0);
    await update(child, { deletedAt: null });
    expect(await relayed()).toEqual([child]);
    expect(await noteChanges.pending()).toBe(0);
  });
});

describe("the note-changes relay across processes", () => {
  test("relays run at once through two databases take each outbox row once", async () => {
    const { noteChanges } = under.stores;
    await noteChanges.discardAll();
    const ann = await write((s) => user(s, "relay-ann"));
    const { notebookId, headNoteId } = await write((s) => notebook(s, ann.userId));
    await write(function* (s) {
      for (let i = 0; i < 30; i++) yield* note(s, notebookId, headNoteId, `n${i}`);
    });
    expect(await noteChanges.pending()).toBe(31);
    const other = noteChangesStore(await under.another());
    const taken = await Promise.all(
      Array.from({ length: 4 }, (_, i) => (i % 2 === 0 ? noteChanges : other).relay({ embedKind: null, runAt: 0 }, 0)),
    );
    expect(taken.reduce((sum, n) => sum + n, 0)).toBe(31);
    expect(await noteChanges.pending()).toBe(0);
  });
});

describe("notebooks kept while held", () => {
  test("a notebook someone subscribes to cannot be deleted; without holders it can", async () => {
    const ann = await write((s) => user(s, "held-ann"));
    const bob = await write((s) => user(s, "held-bob"));
    const { notebookId } = await write((s) => notebook(s, ann.userId));
    await write((s) => run(s, s.db.insert(s.t.subscriptions).values({ userId: bob.userId, notebookId, createdAt: new Date(0) })));
    const drop = () =>
      write(function* (s) {
        yield* run(s, s.db.update(s.t.notebooks).set({ headNoteId: null }).where(eq(s.t.notebooks.id, notebookId)));
        yield* run(s, s.db.delete(s.t.notebooks).where(eq(s.t.notebooks.id, notebookId)));
      });
    await expect(drop()).rejects.toThrow(/cannot be deleted/);
    await write((s) => run(s, s.db.delete(s.t.subscriptions).where(eq(s.t.subscriptions.notebookId, notebookId))));
    await drop();
    expect(await read((s) => all(s, s.db.select().from(s.t.notes).where(eq(s.t.notes.notebookId, notebookId))))).toEqual([]);
  });
});

describe("tracker due buckets", () => {
  test("active trackers of notes not deleted are counted per user, notebook and 15-minute bucket", async () => {
    const ann = await write((s) => user(s, "due-ann"));
    const first = await write((s) => notebook(s, ann.userId));
    const second = await write((s) => notebook(s, ann.userId));
    const noteId = await write((s) => note(s, first.notebookId, first.headNoteId, "Due"));
    const buckets = () =>
      read((s) =>
        all(
          s,
          s.db
            .select({
              bucket: s.t.trackerDueBuckets.bucket,
              notebookId: s.t.trackerDueBuckets.notebookId,
              trackers: s.t.trackerDueBuckets.trackers,
            })
            .from(s.t.trackerDueBuckets)
            .where(eq(s.t.trackerDueBuckets.userId, ann.userId))
            .orderBy(asc(s.t.trackerDueBuckets.notebookId), asc(s.t.trackerDueBuckets.bucket)),
        ),
      ).then((rows) => rows.filter((row) => row.trackers !== 0));
    const trackerId = await write((s) => tracker(s, ann.userId, noteId, 10 * BUCKET + 5));
    await write((s) => tracker(s, ann.userId, first.headNoteId, 10 * BUCKET + 7));
    expect(await buckets()).toEqual([{ bucket: 10, notebookId: first.notebookId, trackers: 2 }]);
    await write((s) =>
      run(
        s,
        s.db
          .update(s.t.memoryTrackers)
          .set({ nextRecallAt: new Date(12 * BUCKET) })
          .where(eq(s.t.memoryTrackers.id, trackerId)),
      ),
    );
    expect(await buckets()).toEqual([
      { bucket: 10, notebookId: first.notebookId, trackers: 1 },
      { bucket: 12, notebookId: first.notebookId, trackers: 1 },
    ]);
    await write((s) => run(s, s.db.update(s.t.notes).set({ notebookId: second.notebookId }).where(eq(s.t.notes.id, noteId))));
    expect(await buckets()).toEqual([
      { bucket: 10, notebookId: first.notebookId, trackers: 1 },
      { bucket: 12, notebookId: second.notebookId, trackers: 1 },
    ]);
    await write((s) =>
      run(
        s,
        s.db
          .update(s.t.notes)
          .set({ deletedAt: new Date(1) })
          .where(eq(s.t.notes.id, noteId)),
      ),
    );
    expect(await buckets()).toEqual([{ bucket: 10, notebookId: first.notebookId, trackers: 1 }]);
    await write((s) => run(s, s.db.update(s.t.notes).set({ deletedAt: null }).where(eq(s.t.notes.id, noteId))));
    await write((s) => run(s, s.db.delete(s.t.notes).where(eq(s.t.notes.id, noteId))));
    expect(await buckets()).toEqual([{ bucket: 10, notebookId: first.notebookId, trackers: 1 }]);
    await write((s) =>
      run(s, s.db.update(s.t.memoryTrackers).set({ removedFromTracking: true }).where(eq(s.t.memoryTrackers.userId, ann.userId))),
    );
    expect(await buckets()).toEqual([]);
  });
});

describe("sibling order", () => {
  test("first, last and between: orders with gaps; parallel placements under one parent never share an order", async () => {
    const ann = await write((s) => user(s, "order-ann"));
    const { notebookId, headNoteId } = await write((s) => notebook(s, ann.userId));
    const place = (title: string) =>
      write(function* (s) {
        const order = yield* orderForLastChild(s, headNoteId);
        return yield* note(s, notebookId, headNoteId, title, 0, order);
      });
    const first = await place("a");
    const orders = () =>
      read((s) =>
        all(
          s,
          s.db
            .select({ id: s.t.notes.id, order: s.t.notes.siblingOrder })
            .from(s.t.notes)
            .where(eq(s.t.notes.parentId, headNoteId))
            .orderBy(asc(s.t.notes.siblingOrder)),
        ),
      );
    expect((await orders()).map((row) => row.order)).toEqual([1024]);
    expect(await write((s) => orderForFirstChild(s, headNoteId))).toBe(0);
    expect(await write((s) => orderAfter(s, { id: first, parentId: headNoteId, notebookId, siblingOrder: 1024 }))).toBe(2048);
    const other = await under.another();
    const placeThrough = (title: string, i: number) =>
      (i % 2 === 0 ? under.database : other).write(function* (s) {
        const order = yield* orderForLastChild(s, headNoteId);
        return yield* note(s, notebookId, headNoteId, title, 0, order);
      });
    await Promise.all(Array.from({ length: 6 }, (_, i) => placeThrough(`p${i}`, i)));
    const placed = (await orders()).map((row) => row.order);
    expect(placed.length).toBe(7);
    expect(new Set(placed).size).toBe(7);
  });
});
