/**
 * An import's worker writes (operations/pending-writes.ts) on the database under test: what it
 * stages (hidden notes, an image, an attachment) stays out of sight, from another Database too,
 * until the one publishing unit shows it all; a failure removes exactly what it staged.
 */
import { describe, expect, test } from "bun:test";
import { count, eq } from "drizzle-orm";
import { PendingWrites } from "../../src/operations/pending-writes";
import { stagedPathKey } from "../../src/services/vaults/attachment-keys";
import { createStores } from "../../src/store";
import { insertLastChildren } from "../../src/store/notes/insert-note";
import {
  finish,
  forgetPending,
  OPERATION_LEASE_MS,
  publishAttachments,
  publishNotes,
  recordPending,
} from "../../src/store/operations/operations-store";
import type { Session, Step } from "../../src/store/session";
import { all } from "../../src/store/session";
import { databaseUnderTestOfFile } from "../support/database-under-test";
import { note, notebook, seed, startedImport, user } from "./seed";

const under = databaseUnderTestOfFile();
const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const pdf = new TextEncoder().encode("%PDF-1.4 staged");

/** A notebook with one note of its own, and an import into it started with what the worker writes through. */
async function importInto(title: string) {
  const { userId, notebookId, headNoteId, kept } = await seed(under.database, function* (s) {
    const { userId } = yield* user(s, `${title} owner`);
    const book = yield* notebook(s, userId, title);
    const kept = yield* note(s, book.notebookId, book.headNoteId, "Already there");
    return { userId, ...book, kept };
  });
  const operationId = await startedImport(under.stores, userId, notebookId, title);
  const writes = new PendingWrites({ database: under.database, stores: under.stores, close: async () => {} }, operationId, new Date());
  return { userId, notebookId, headNoteId, kept, operationId, writes };
}

/** Stages what an import writes: an image and an attachment as files are read, then three hidden notes in batches. */
async function stage(writes: PendingWrites, userId: number, notebookId: number, headNoteId: number) {
  const { id: imageId } = await writes.storeImage(userId, { bytes: png, contentType: "image/png" });
  expect(await writes.storeAttachment(notebookId, { path: "Files/paper.pdf", bytes: pdf, contentType: "application/pdf" })).toBe(true);
  const now = writes.now;
  const operationId = writes.operationId;
  const parent = { id: headNoteId, notebookId };
  const notes = await writes.inBatches(
    ["One", "Two", "Three"].map((title) => ({ parent, columns: { title, deletedAt: now } })),
    function* (s, batch) {
      const rows = yield* insertLastChildren(s, now, batch);
      yield* recordPending(
        s,
        operationId,
        "note",
        rows.map((row) => row.id),
      );
      return rows;
    },
  );
  return { imageId: await imageId, noteIds: notes.map((row) => row.id) };
}

function* counts(s: Session, operationId: number, imageId: number): Step<{ pending: number; images: number; notes: number }> {
  const [pending] = yield* all(
    s,
    s.db.select({ n: count() }).from(s.t.operationRows).where(eq(s.t.operationRows.operationId, operationId)),
  );
  const [images] = yield* all(s, s.db.select({ n: count() }).from(s.t.noteImages).where(eq(s.t.noteImages.id, imageId)));
  const [notes] = yield* all(s, s.db.select({ n: count() }).from(s.t.notes));
  return { pending: Number(pending!.n), images: Number(images!.n), notes: Number(notes!.n) };
}

const titles = (rows: { title: string }[]) => rows.map((row) => row.title);

describe("a staged import", () => {
  test("its rows become visible only when published, to this Database and another", async () => {
    const { userId, notebookId, headNoteId, operationId, writes } = await importInto("Published");
    const { imageId } = await stage(writes, userId, notebookId, headNoteId);
    const other = createStores(await under.another());
    for (const stores of [under.stores, other]) {
      expect(titles(await stores.notes.childrenOf(headNoteId))).toEqual(["Already there"]);
      expect(await stores.notes.attachmentsOf(notebookId)).toEqual([]);
    }
    expect((await under.database.read((s) => counts(s, operationId, imageId))).pending).toBe(5);

    const prefixLength = stagedPathKey(operationId, "").length;
    await writes.publish(function* (s) {
      yield* publishNotes(s, operationId);
      yield* publishAttachments(s, operationId, notebookId, prefixLength);
      yield* forgetPending(s, operationId);
      expect(yield* finish(s, operationId, { created: 3 }, writes.clock())).toBe(true);
    });
    for (const stores of [under.stores, other]) {
      expect(titles(await stores.notes.childrenOf(headNoteId))).toEqual(["Already there", "One", "Two", "Three"]);
      expect((await stores.notes.attachmentsOf(notebookId)).map((a) => a.path)).toEqual(["Files/paper.pdf"]);
    }
    expect(await under.database.read((s) => counts(s, operationId, imageId))).toMatchObject({ pending: 0, images: 1 });
    expect((await under.stores.operations.find(operationId))?.status).toBe("done");
  });

  test("a failure removes exactly what it staged", async () => {
    const { userId, notebookId, headNoteId, kept, operationId, writes } = await importInto("Failed");
    const before = await under.database.read((s) => counts(s, operationId, 0));
    const { imageId, noteIds } = await stage(writes, userId, notebookId, headNoteId);
    expect((await under.database.read((s) => counts(s, operationId, imageId))).notes).toBe(before.notes + noteIds.length);
    await writes.removeAll();
    expect(await under.database.read((s) => counts(s, operationId, imageId))).toEqual({ pending: 0, images: 0, notes: before.notes });
    expect(titles(await under.stores.notes.childrenOf(headNoteId))).toEqual(["Already there"]);
    expect((await under.stores.notes.noteById(kept))?.title).toBe("Already there");
    expect(await under.stores.notes.attachmentsOf(notebookId)).toEqual([]);
  });

  test("found abandoned, it is failed only if its lease has not been renewed since", async () => {
    const { operationId } = await importInto("Slow, not dead");
    const wallNow = Date.now() + 2 * OPERATION_LEASE_MS;
    expect((await under.stores.operations.abandoned(wallNow)).map((operation) => operation.id)).toContain(operationId);
    // Its worker writes a batch meanwhile, renewing the lease past that moment.
    const renewed = await under.stores.operations.recordProgress(
      operationId,
      { phase: "reading", done: 1 },
      wallNow + OPERATION_LEASE_MS,
      Date.now(),
    );
    expect(renewed).toBe(true);
    expect(await under.stores.operations.fail(operationId, "stopped", Date.now(), wallNow)).toBe(false);
    expect((await under.stores.operations.find(operationId))?.status).toBe("running");
    // A lease still run out is failed.
    expect(await under.stores.operations.fail(operationId, "stopped", Date.now(), wallNow + 2 * OPERATION_LEASE_MS)).toBe(true);
    expect((await under.stores.operations.find(operationId))?.status).toBe("failed");
  });
});
