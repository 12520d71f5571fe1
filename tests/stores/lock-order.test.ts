/**
 * Units that lock the same rows in opposite orders deadlock on PostgreSQL: it gives one of them
 * up, and the Database runs that one again (a hidden cost, a failure after three tries). Here a
 * unit of the test holds a row the store's unit needs, waits until that unit waits for it, then
 * does what a concurrent unit would do next; the store's body must have run once, not again
 * after a deadlock. On SQLite a write unit is the only writer: the units just run at once.
 */
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { createStores } from "../../src/store";
import type { MemoryTrackerRow } from "../../src/store/memory/memory-store";
import type { PostgresDatabase } from "../../src/store/postgres-database";
import { run } from "../../src/store/session";
import { databaseUnderTestOfFile } from "../support/database-under-test";
import { untilLockWaiters } from "../support/lock-waiters";
import { note, notebook, tracker, user } from "./seed";

const under = databaseUnderTestOfFile();

describe("scheduler switches", () => {
  test("leaving FSRS while a removed tracker is reviewed: the switch waits for the tracker before it raises any version", async () => {
    const { userId, removedId } = await under.database.write(function* (s) {
      const { userId } = yield* user(s, "uma");
      yield* run(s, s.db.update(s.t.users).set({ scheduler: "fsrs" }).where(eq(s.t.users.id, userId)));
      const { notebookId, headNoteId } = yield* notebook(s, userId);
      const activeNote = yield* note(s, notebookId, headNoteId, "active");
      const removedNote = yield* note(s, notebookId, headNoteId, "removed", 0, 2048);
      const activeId = yield* tracker(s, userId, activeNote, 0);
      const removedId = yield* tracker(s, userId, removedNote, 0);
      const m = s.t.memoryTrackers;
      yield* run(s, s.db.update(m).set({ stability: 3, difficulty: 5 }).where(eq(m.id, activeId)));
      yield* run(s, s.db.update(m).set({ stability: 3, difficulty: 5, removedFromTracking: true }).where(eq(m.id, removedId)));
      return { userId, removedId };
    });
    let runs = 0;
    const leave = () => {
      runs++;
      return { to: "forgetting-curve" as const, convert: (_row: MemoryTrackerRow) => ({ stability: null, difficulty: null }) };
    };
    const stores = createStores(await under.another());
    const switched = () => stores.users.updateSettings(userId, { scheduler: "forgetting-curve" }, leave);
    const reviewed = new Date(5000);
    if (under.dialect === "postgres") {
      // A review of the removed tracker: its row locked first, then its schedule written (which raises
      // the user's recall version), as memory.repeat does.
      const database = under.database as PostgresDatabase;
      let switching: Promise<unknown> | undefined;
      await database.client.begin(async (tx) => {
        await tx`SELECT id FROM memory_trackers WHERE id = ${removedId} FOR UPDATE`;
        switching = switched();
        await untilLockWaiters(database, 1);
        await tx`UPDATE memory_trackers SET last_recalled_at = ${reviewed} WHERE id = ${removedId}`;
      });
      await switching;
    } else {
      await Promise.all([switched(), under.stores.memory.removeFromTracking(removedId, reviewed)]);
    }
    expect(runs).toBe(1);
    const removed = (await under.stores.memory.tracker(removedId))!;
    expect({ stability: removed.stability, lastRecalledAt: removed.lastRecalledAt }).toEqual({ stability: null, lastRecalledAt: reviewed });
  });

  test("a note assimilated while the user switches to FSRS: the switch raises the user's learning version before it counts anything", async () => {
    const { userId, noteId } = await under.database.write(function* (s) {
      const { userId } = yield* user(s, "una");
      const { notebookId, headNoteId } = yield* notebook(s, userId);
      yield* tracker(s, userId, yield* note(s, notebookId, headNoteId, "learnt"), 0);
      return { userId, noteId: yield* note(s, notebookId, headNoteId, "new", 0, 2048) };
    });
    let runs = 0;
    const toFsrs = () => {
      runs++;
      return { to: "fsrs" as const, convert: (_row: MemoryTrackerRow) => ({ stability: 3, difficulty: 5 }) };
    };
    const stores = createStores(await under.another());
    const switched = () => stores.users.updateSettings(userId, { scheduler: "fsrs" }, toFsrs);
    const at = new Date(0);
    if (under.dialect === "postgres") {
      // What an assimilation's insert of a tracker does: raise the user's learning version, then
      // count the tracker in the user's aggregates (its triggers, in that order).
      const database = under.database as PostgresDatabase;
      let switching: Promise<unknown> | undefined;
      await database.client.begin(async (tx) => {
        await tx`SELECT engram_bump('user-learning', ${userId})`;
        switching = switched();
        await untilLockWaiters(database, 1);
        await tx`INSERT INTO memory_trackers (user_id, note_id, assimilated_at, last_recalled_at, next_recall_at)
          VALUES (${userId}, ${noteId}, ${at}, ${at}, ${at})`;
      });
      await switching;
    } else {
      const values = { userId, noteId, assimilatedAt: at, lastRecalledAt: at, nextRecallAt: at };
      await Promise.all([switched(), under.stores.memory.assimilate(userId, noteId, [values], () => "{}")]);
    }
    expect(runs).toBe(1);
  });
});
