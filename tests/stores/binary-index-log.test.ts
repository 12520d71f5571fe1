/**
 * The binary index's change log (note_embedding_bits_changes) as a copy in memory follows it: it
 * reads the changes after the last sequence number it applied and moves on to the newest one it
 * saw, so it must never see a change before an older one (a lower number) is committed.
 */
import { expect, test } from "bun:test";
import { createStores } from "../../src/store";
import type { PostgresDatabase } from "../../src/store/postgres-database";
import { databaseUnderTestOfFile } from "../support/database-under-test";
import { untilLockWaiters } from "../support/lock-waiters";
import { note, notebook, user } from "./seed";

const under = databaseUnderTestOfFile();
const MODEL = "m";
const DIMENSIONS = 8;

const embedding = (noteId: number, sourceHash: string) => ({
  noteId,
  model: MODEL,
  dimensions: DIMENSIONS,
  embedding: Buffer.from(new Float32Array(DIMENSIONS).fill(0.5).buffer),
  sourceHash,
});

/** A copy in memory of the log as it stands now, and how it refreshes: the notes it saw changed. */
async function followingCopy() {
  const { binaryIndex } = under.stores;
  const { state } = await binaryIndex.loadAll(MODEL, DIMENSIONS);
  let since = state.lastSeq;
  const seen = new Set<number>();
  const refresh = async () => {
    const refreshed = await binaryIndex.changesSince(state.generation, since, MODEL, DIMENSIONS, 100);
    expect(refreshed.kind).not.toBe("reload");
    if (refreshed.kind !== "changes") return;
    for (const change of refreshed.notes) seen.add(change.noteId);
    since = refreshed.lastSeq;
  };
  return { seen, refresh };
}

/**
 * On PostgreSQL: `paused` writes the log, then waits for the note `held` (the test holds its row);
 * `meanwhile` writes the log too, and the copy refreshes before the held row is let go. On SQLite
 * a write unit is the only writer: both just run.
 */
async function whilePaused(held: number, paused: () => Promise<unknown>, meanwhile: () => Promise<unknown>, refresh: () => Promise<void>) {
  if (under.dialect !== "postgres") {
    await Promise.all([paused(), meanwhile()]);
    return;
  }
  const database = under.database as PostgresDatabase;
  let written: Promise<unknown>[] = [];
  await database.client.begin(async (tx) => {
    await tx`SELECT id FROM notes WHERE id = ${held} FOR UPDATE`;
    const first = paused();
    await untilLockWaiters(database, 1);
    const second = meanwhile();
    await Promise.race([second, untilLockWaiters(database, 2)]);
    written = [first, second];
    await refresh();
  });
  await Promise.all(written);
}

/** Notes of one learner: three in one notebook, one in another. */
async function notes(name: string) {
  return under.database.write(function* (s) {
    const { userId } = yield* user(s, name);
    const from = yield* notebook(s, userId);
    const to = yield* notebook(s, userId, "Elsewhere");
    return {
      first: yield* note(s, from.notebookId, from.headNoteId, "first"),
      paused: yield* note(s, from.notebookId, from.headNoteId, "paused", 0, 2048),
      other: yield* note(s, from.notebookId, from.headNoteId, "other", 0, 3072),
      elsewhere: yield* note(s, to.notebookId, to.headNoteId, "elsewhere"),
    };
  });
}

test("embeddings stored at once by two units: a copy following the log sees every note they changed", async () => {
  const { first, paused, other } = await notes("vic");
  const [a, b] = [createStores(await under.another()), createStores(await under.another())];
  await a.search.storeEmbeddings([embedding(other, "before")], 1000, 0);
  const { seen, refresh } = await followingCopy();
  // The first unit logs its first note, then waits for its second note's row.
  await whilePaused(
    paused,
    () => a.search.storeEmbeddings([embedding(first, "1"), embedding(paused, "1")], 1000, 0),
    () => b.search.storeEmbeddings([embedding(other, "1")], 1000, 0),
    refresh,
  );
  await refresh();
  expect([...seen].sort((x, y) => x - y)).toEqual([first, paused, other]);
});

test("a note moved to another notebook while embeddings are stored: a copy following the log sees both", async () => {
  const { first, paused, other, elsewhere } = await notes("wyn");
  const [a, b] = [createStores(await under.another()), createStores(await under.another())];
  await a.search.storeEmbeddings([embedding(other, "before")], 1000, 0);
  const { seen, refresh } = await followingCopy();
  const [moved, target] = [(await under.stores.notes.noteById(other))!, (await under.stores.notes.noteById(elsewhere))!];
  await whilePaused(
    paused,
    () => a.search.storeEmbeddings([embedding(first, "1"), embedding(paused, "1")], 1000, 0),
    () => b.notes.moveNote(moved, target, true, new Date(1000)),
    refresh,
  );
  await refresh();
  expect([...seen].sort((x, y) => x - y)).toEqual([first, paused, other]);
});
