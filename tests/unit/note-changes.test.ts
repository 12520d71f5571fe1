/**
 * The change stream of an open note (services/notes/note-changes.ts) tells each revision once,
 * however many times a save is told: by the process that saved it, and by the watch of saves made
 * through other processes (on PostgreSQL the database's wake-up makes that watch look at once, so
 * either may come first).
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { readConfig } from "../../src/config";
import { createSqliteContext } from "../../src/context";
import { accounts, notes } from "../../src/db/schema";
import { noteChangeStream, noteTextSaved } from "../../src/services/notes/note-changes";
import { injectNotes } from "../../src/services/testability/inject-notes";
import { cleanDatabaseAndResetTestabilitySettings } from "../../src/services/testability/reset";
import type { CurrentUser } from "../../src/services/users";
import { byAccount } from "../../src/store/users/users-store";
import { eventReader } from "../support/sse";

const dataDir = mkdtempSync(join(tmpdir(), "engram-note-changes-"));
const ctx = createSqliteContext(readConfig({ ENGRAM_MODE: "test", ENGRAM_DATA_DIR: dataDir, PORT: "0" }));
afterAll(() => {
  ctx.sqlite.close();
  rmSync(dataDir, { recursive: true, force: true });
});

test("a save told twice is heard once; the next save is heard next", async () => {
  await cleanDatabaseAndResetTestabilitySettings(ctx);
  const { Note: noteId } = await injectNotes(ctx, undefined, { externalIdentifier: "old_learner", noteTestData: [{ Title: "Note" }] });
  const account = ctx.db.select().from(accounts).where(eq(accounts.externalIdentifier, "old_learner")).get()!;
  const reader: CurrentUser = { account, user: ctx.database.readNow((s) => byAccount(s, account.id))! };
  const response = await noteChangeStream(ctx, reader, noteId!);
  const next = eventReader(response);
  expect(await next()).toEqual({ event: "revisions", data: { titleRevision: 0, detailsRevision: 0 } });

  const save = (set: Partial<typeof notes.$inferInsert>) => ctx.db.update(notes).set(set).where(eq(notes.id, noteId!)).run();
  save({ detailsRevision: 1 });
  noteTextSaved(ctx, noteId!);
  noteTextSaved(ctx, noteId!);
  await Bun.sleep(20); // both tellings checked
  save({ titleRevision: 1 });
  noteTextSaved(ctx, noteId!);
  await Bun.sleep(20);
  expect(await next()).toEqual({ event: "revisions", data: { titleRevision: 0, detailsRevision: 1 } });
  expect(await next()).toEqual({ event: "revisions", data: { titleRevision: 1, detailsRevision: 1 } });
  await next.stop();
});
