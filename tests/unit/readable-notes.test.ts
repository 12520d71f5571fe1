/**
 * The related-notes policy (policies/readable-notes.ts) answers what the notebook roles answer:
 * for every actor and every kind of notebook, a note is readable exactly when mayRead of the
 * reader's role for its notebook, and the answer follows a change of access at once.
 */
import { afterAll, beforeEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { readConfig } from "../../src/config";
import { createSqliteContext } from "../../src/context";
import { accounts, subscriptions } from "../../src/db/schema";
import { requireNote, requireNotebook } from "../../src/services/notes/rows";
import { mayRead, notebookRole, ReadableNotes, readableNoteIds } from "../../src/services/policies";
import { injectNotes } from "../../src/services/testability/inject-notes";
import { cleanDatabaseAndResetTestabilitySettings } from "../../src/services/testability/reset";
import { injectCircle, shareNotebookOfNoteToBazaar } from "../../src/services/testability/sharing";
import type { CurrentUser } from "../../src/services/users";
import { byAccount } from "../../src/store/users/users-store";

const dataDir = mkdtempSync(join(tmpdir(), "engram-readable-"));
const ctx = createSqliteContext(readConfig({ ENGRAM_MODE: "test", ENGRAM_DATA_DIR: dataDir, PORT: "0" }));
afterAll(() => {
  ctx.sqlite.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function userNamed(externalIdentifier: string): CurrentUser {
  const account = ctx.db.select().from(accounts).where(eq(accounts.externalIdentifier, externalIdentifier)).get()!;
  return { account, user: ctx.database.readNow((s) => byAccount(s, account.id))! };
}

let ids: Record<string, number>;
beforeEach(async () => {
  await cleanDatabaseAndResetTestabilitySettings(ctx);
  await injectCircle(ctx, "Team", "old_learner, a_trainer");
  ids = {
    ...(await injectNotes(ctx, undefined, {
      externalIdentifier: "old_learner",
      noteTestData: [{ Title: "Own" }, { Title: "Own note", "Parent Title": "Own" }],
    })),
    ...(await injectNotes(ctx, undefined, { externalIdentifier: "old_learner", noteTestData: [{ Title: "Bazaar" }] })),
    ...(await injectNotes(ctx, undefined, { externalIdentifier: "old_learner", circleName: "Team", noteTestData: [{ Title: "Circle" }] })),
  };
  await shareNotebookOfNoteToBazaar(ctx, "Bazaar");
  const subscriber = userNamed("another_old_learner");
  ctx.db
    .insert(subscriptions)
    .values({
      userId: subscriber.user.id,
      notebookId: (await requireNote(ctx, ids.Own!)).notebookId,
      dailyTargetOfNewNotes: 5,
      createdAt: ctx.clock.now(),
    })
    .run();
});

test("a note is readable exactly when the reader's role for its notebook may read", async () => {
  const readers: (CurrentUser | undefined)[] = [
    undefined,
    ...["old_learner", "another_old_learner", "a_trainer", "non_admin", "admin"].map(userNamed),
  ];
  const notes = await Promise.all(["Own", "Own note", "Bazaar", "Circle"].map((title) => requireNote(ctx, ids[title]!)));
  const notebooks = new Map(
    await Promise.all(notes.map(async (note) => [note.notebookId, await requireNotebook(ctx, note.notebookId)] as const)),
  );
  for (const reader of readers) {
    const readable = await ReadableNotes.of(ctx, reader);
    const roles = await Promise.all(notes.map((note) => notebookRole(ctx, reader, notebooks.get(note.notebookId)!)));
    const expected = notes.filter((_, i) => mayRead(roles[i]!));
    expect(readable.filter(notes).map((n) => n.id)).toEqual(expected.map((n) => n.id));
    expect([...(await readableNoteIds(ctx, reader, [...notes.map((n) => n.id), 999_999]))].sort()).toEqual(
      expected.map((n) => n.id).sort(),
    );
  }
  // The matrix is not trivial: each reader reads a different set.
  expect(await readableNoteIds(ctx, undefined, [ids.Own!, ids.Bazaar!, ids.Circle!])).toEqual(new Set([ids.Bazaar!]));
  expect(await readableNoteIds(ctx, userNamed("a_trainer"), [ids.Own!, ids.Bazaar!, ids.Circle!])).toEqual(
    new Set([ids.Bazaar!, ids.Circle!]),
  );
  expect(await readableNoteIds(ctx, userNamed("another_old_learner"), [ids.Own!, ids.Circle!])).toEqual(new Set([ids.Own!]));
});

test("losing access is seen by the next question", async () => {
  const subscriber = userNamed("another_old_learner");
  expect(await readableNoteIds(ctx, subscriber, [ids["Own note"]!])).toEqual(new Set([ids["Own note"]!]));
  ctx.db.delete(subscriptions).run();
  expect(await readableNoteIds(ctx, subscriber, [ids["Own note"]!])).toEqual(new Set());
});
