/** The test reset on both databases: every table emptied, identities restarted, caches told. */
import { expect, test } from "bun:test";
import { count } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { one, type Session, type Step } from "../../src/store/session";
import { databaseUnderTestOfFile } from "../support/database-under-test";
import { cacheVersion, note, notebook, tracker, user } from "./seed";

const under = databaseUnderTestOfFile();
const write = <T>(body: (s: Session) => Step<T>) => under.database.write(body);
const read = <T>(body: (s: Session) => Step<T>) => under.database.read(body);

test("the reset empties every table, restarts identities, raises cache versions and starts a new bits generation", async () => {
  const ann = await write(function* (s) {
    const ann = yield* user(s, "reset-ann");
    const book = yield* notebook(s, ann.userId);
    const child = yield* note(s, book.notebookId, book.headNoteId, "child");
    yield* tracker(s, ann.userId, child, 5_000);
    return { ...ann, child };
  });
  await under.stores.search.storeEmbeddings(
    [{ noteId: ann.child, model: "m", dimensions: 2, embedding: Buffer.from(new Float32Array([1, 0]).buffer), sourceHash: "h" }],
    100,
    0,
  );
  await under.stores.signInLimits.record("reset-key", { maxAttempts: 3, windowMs: 60_000, windowFrom: "first", lockMs: () => 60_000 }, 0);
  const before = await read((s) => cacheVersion(s, "account", ann.accountId));
  expect(before).toBeGreaterThan(0);

  await under.stores.operations.emptyEveryTable(424_242);

  const counts = await read(function* (s) {
    const rows = (table: SQLiteTable) => one(s, s.db.select({ n: count() }).from(table));
    return {
      accounts: (yield* rows(s.t.accounts))!.n,
      users: (yield* rows(s.t.users))!.n,
      notebooks: (yield* rows(s.t.notebooks))!.n,
      notes: (yield* rows(s.t.notes))!.n,
      trackers: (yield* rows(s.t.memoryTrackers))!.n,
      embeddings: (yield* rows(s.t.noteEmbeddings))!.n,
      bits: (yield* rows(s.t.noteEmbeddingBits))!.n,
      changes: (yield* rows(s.t.noteChanges))!.n,
      limits: (yield* rows(s.t.signInLimits))!.n,
      userTrackerCounts: (yield* rows(s.t.userTrackerCounts))!.n,
    };
  });
  expect(counts).toEqual({
    accounts: 0,
    users: 0,
    notebooks: 0,
    notes: 0,
    trackers: 0,
    embeddings: 0,
    bits: 0,
    changes: 0,
    limits: 0,
    userTrackerCounts: 0,
  });
  expect(await under.stores.binaryIndex.generation()).toBe(424_242);
  // A kept answer about the old account 1 is never taken for the new account 1.
  expect(await read((s) => cacheVersion(s, "account", ann.accountId))).toBeGreaterThan(before);
  const again = await write((s) => user(s, "reset-bob"));
  expect(again).toEqual({ accountId: 1, userId: 1 });
});
