/**
 * A vault import reads a note, works for a while, then publishes what it changes. Text edited in
 * Engram meanwhile is never overwritten: an edit in another place is merged with the vault's
 * text, an edit in the same place is kept (and the import says so).
 */
import { expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { mergeTexts } from "../../islands/lib/text-merge";
import { applyImportedUpdates, type ImportedUpdate } from "../../src/store/notes/notes-import";
import { one } from "../../src/store/session";
import { databaseUnderTestOfFile } from "../support/database-under-test";
import { note, notebook, seed, user } from "./seed";

const under = databaseUnderTestOfFile();
const READ = "Line one.\n\nLine two.";

/** A note holding READ, then edited in Engram to `edited` (or left as it was). */
async function noteEditedTo(name: string, edited: string) {
  return seed(under.database, function* (s) {
    const { userId } = yield* user(s, name);
    const book = yield* notebook(s, userId, name);
    const noteId = yield* note(s, book.notebookId, book.headNoteId, "Cell");
    yield* one(s, s.db.update(s.t.notes).set({ details: edited }).where(eq(s.t.notes.id, noteId)).returning());
    return noteId;
  });
}

async function publish(noteId: number, details: string) {
  const update: ImportedUpdate = { noteId, set: { details }, read: { title: "Cell", details: READ }, oldImageId: null };
  const kept = await under.database.write((s) => applyImportedUpdates(s, [update], new Date(), mergeTexts));
  const row = await under.database.read((s) => one(s, s.db.select().from(s.t.notes).where(eq(s.t.notes.id, noteId))));
  return { kept, details: row!.details };
}

test("a note nobody edited since the import read it takes the vault's text", async () => {
  const noteId = await noteEditedTo("untouched", READ);
  expect(await publish(noteId, "Line one.\n\nLine two, from the vault.")).toEqual({
    kept: [],
    details: "Line one.\n\nLine two, from the vault.",
  });
});

test("an edit made meanwhile in another place is merged with the vault's text", async () => {
  const noteId = await noteEditedTo("elsewhere", "Line one, edited.\n\nLine two.");
  expect(await publish(noteId, "Line one.\n\nLine two, from the vault.")).toEqual({
    kept: [],
    details: "Line one, edited.\n\nLine two, from the vault.",
  });
});

test("an edit made meanwhile in the same place is kept, and answered as kept", async () => {
  const noteId = await noteEditedTo("same place", "Line one, edited.\n\nLine two.");
  expect(await publish(noteId, "Line one, from the vault.\n\nLine two.")).toEqual({
    kept: [{ noteId, field: "details" }],
    details: "Line one, edited.\n\nLine two.",
  });
});
