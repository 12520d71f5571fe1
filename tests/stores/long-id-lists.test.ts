/**
 * Store bodies asked about lists of ids longer than one statement may bind one parameter per id
 * (PostgreSQL refuses more than 65,535 parameters; Bun's SQLite more than 250,000): an import
 * publishing tens of thousands of staged files or dropping as many unused images, the access check
 * for as many notes, a search scope of as many notebooks. Most ids are of no row; a few real rows
 * among them make each answer checkable.
 */
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { attachmentPathKey, stagedPathKey } from "../../src/services/vaults/attachment-keys";
import { stageAttachment, storeImage } from "../../src/store/notes/notes-import";
import { dropUnusedImages, publishAttachments, recordPending } from "../../src/store/operations/operations-store";
import { all, IDS_BOUND_ONE_BY_ONE, run, type Session, type Step } from "../../src/store/session";
import { databaseUnderTestOfFile } from "../support/database-under-test";
import { conversation, note, notebook, startedImport, user } from "./seed";

const under = databaseUnderTestOfFile();
const write = <T>(body: (s: Session) => Step<T>) => under.database.write(body);

/** More ids than PostgreSQL binds in one statement. */
const LONG = 70_000;

/** `count` ids of no row (far above any id the test writes), with `real` spread among them. */
function idsWith(real: number[], count = LONG): number[] {
  const ids = Array.from({ length: count - real.length }, (_, i) => 10_000_000 + i);
  for (const [k, id] of real.entries()) ids.splice(Math.floor(((k + 1) * ids.length) / (real.length + 1)), 0, id);
  return ids;
}

const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

/** An owner with a notebook; an import into it started. */
async function importInto(title: string) {
  const { userId, notebookId, headNoteId } = await write(function* (s) {
    const { userId } = yield* user(s, `${title} owner`);
    return { userId, ...(yield* notebook(s, userId, title)) };
  });
  return { userId, notebookId, headNoteId, operationId: await startedImport(under.stores, userId, notebookId, title) };
}

/** Lists the ids as the operation's unpublished rows of a kind, in units of a few thousand (as an import's batches do). */
async function recordAll(operationId: number, kind: "attachment" | "image", ids: number[]) {
  for (let i = 0; i < ids.length; i += 5000) await write((s) => recordPending(s, operationId, kind, ids.slice(i, i + 5000)));
}

describe("an import with tens of thousands of staged rows", () => {
  test("publishes its staged files among tens of thousands, replacing the file of the same path", async () => {
    const { notebookId, operationId } = await importInto("Many files");
    const bytes = Buffer.from("%PDF-1.4");
    const kept = await write((s) =>
      stageAttachment(s, { notebookId, path: "Old.pdf", stagedPathKey: "old.pdf", contentType: "application/pdf", bytes }, 0),
    );
    const replaced = await write((s) =>
      stageAttachment(s, { notebookId, path: "Paper.pdf", stagedPathKey: "paper.pdf", contentType: "application/pdf", bytes }, 0),
    );
    const staged: number[] = [];
    for (const path of ["Paper.pdf", "New.pdf", "Files/Third.pdf"]) {
      const stagedKey = stagedPathKey(operationId, attachmentPathKey(path));
      staged.push(
        await write((s) => stageAttachment(s, { notebookId, path, stagedPathKey: stagedKey, contentType: "application/pdf", bytes }, 0)),
      );
    }
    await recordAll(operationId, "attachment", idsWith(staged));

    const prefixLength = stagedPathKey(operationId, "").length;
    await write((s) => publishAttachments(s, operationId, notebookId, prefixLength));

    const files = await under.stores.notes.attachmentsOf(notebookId);
    expect(sorted(files.map((file) => file.id))).toEqual(sorted([kept, ...staged]));
    expect(files.map((file) => file.path).sort()).toEqual(["Files/Third.pdf", "New.pdf", "Old.pdf", "Paper.pdf"]);
    expect(files.some((file) => file.id === replaced)).toBe(false);
  });

  test("drops the images no note was given, among tens of thousands", async () => {
    const { userId, operationId } = await importInto("Many images");
    const image = { bytes: Buffer.from([0x89, 0x50, 0x4e, 0x47]), contentType: "image/png" };
    const images: number[] = [];
    for (let i = 0; i < 3; i++) images.push(await write((s) => storeImage(s, userId, image, 0)));
    await recordAll(operationId, "image", idsWith(images));

    await write((s) => dropUnusedImages(s, operationId, new Set([images[1]!])));

    const left = await under.database.read((s) => all(s, s.db.select({ id: s.t.noteImages.id }).from(s.t.noteImages)));
    expect(left.map((row) => row.id)).toEqual([images[1]!]);
  });
});

describe("reads asked about tens of thousands of ids", () => {
  test("the access check answers the notebook of each note that exists", async () => {
    const { notebookId, headNoteId } = await importInto("Access");
    const child = await write((s) => note(s, notebookId, headNoteId, "Child"));
    const rows = await under.stores.sharing.notebooksOfNotes(idsWith([headNoteId, child]));
    expect(rows.map((row) => [row.id, row.notebookId]).sort((a, b) => a[0]! - b[0]!)).toEqual([
      [headNoteId, notebookId],
      [child, notebookId],
    ]);
  });

  test("a search scope of tens of thousands of notebooks finds the notes of those that exist", async () => {
    const { notebookId, headNoteId } = await importInto("Scope");
    const needle = await write((s) => note(s, notebookId, headNoteId, "Needle in a haystack"));
    const scope = { notebookIds: idsWith([notebookId]) };
    const { search } = under.stores;
    expect((await search.literal(scope, "needle")).map((hit) => hit.noteId)).toEqual([needle]);
    expect((await search.literal(scope, "Ne")).map((hit) => hit.noteId)).toEqual([needle]);
    expect((await search.literal(scope, "haystack needle")).map((hit) => hit.noteId)).toEqual([needle]);
    expect(await search.scopeHoldsAtMost(scope.notebookIds, 1)).toBe(false);
    expect(await search.scopeHoldsAtMost(scope.notebookIds, 2)).toBe(true);
    expect(await search.exactScan(scope, "no-model", Buffer.alloc(16), 4, 2)).toEqual([]);
    await under.stores.jobs.enqueue({ kind: "embed-note", payloads: ["{}"], runAt: 0, dedupe: false }, 0);
    expect(await search.embeddedCount(scope.notebookIds, ["embed-note"])).toEqual({ total: 2, embedded: 0 });
    const titled = await under.stores.notes.notesTitled(scope.notebookIds, "needle in a haystack");
    expect(titled.map((found) => found.note.id)).toEqual([needle]);
  });

  test("notes by id, their children's counts and live notebooks answer the rows that exist", async () => {
    const { notebookId, headNoteId } = await importInto("By id");
    const child = await write((s) => note(s, notebookId, headNoteId, "Only child"));
    const { notes } = under.stores;
    expect((await notes.notesByIds(idsWith([child, headNoteId]))).map((row) => row.id)).toEqual([child, headNoteId]);
    const counts = await notes.childAndLinkCounts(idsWith([headNoteId, child]));
    expect(counts.get(headNoteId)).toEqual({ children: 1, links: 0 });
    expect(counts.get(child)).toEqual({ children: 0, links: 0 });
    const live = await notes.liveNotebooks({ ids: idsWith([notebookId]) });
    expect(live.map((row) => [row.notebook.id, row.head.id])).toEqual([[notebookId, headNoteId]]);
  });

  test("revisions, people's names, cancelled runs and attempts' questions answer the rows that exist", async () => {
    const { userId, notebookId, headNoteId } = await importInto("Others");
    expect((await under.stores.noteRevisions.revisionsOf(idsWith([headNoteId]))).map((row) => row.id)).toEqual([headNoteId]);
    expect((await under.stores.userReferences.namedUsers(idsWith([userId]))).map((row) => row.name)).toEqual(["Others owner"]);

    const conversationId = await write((s) => conversation(s, userId));
    const { run: aiRun } = await under.stores.aiRuns.start(conversationId, 0);
    await write((s) => run(s, s.db.update(s.t.aiRuns).set({ status: "cancelled" }).where(eq(s.t.aiRuns.id, aiRun.id))));
    expect(await under.stores.aiRuns.cancelledAmong(idsWith([aiRun.id]))).toEqual([aiRun.id]);

    const question = await under.stores.recallPrompts.insertQuestion(
      headNoteId,
      { multipleChoicesQuestion: "{}", correctAnswerIndex: 0, approved: true, contested: false },
      new Date(0),
    );
    const { attempt } = await under.stores.assessments.startAttempt(userId, notebookId, [question], new Date(0));
    const instances = await under.stores.assessments.instancesOf(idsWith([attempt.id]));
    expect(instances.map((row) => row.attemptId)).toEqual([attempt.id]);
  });

  test("failure reports are deleted among tens of thousands of ids", async () => {
    const { failureReports } = under.stores;
    const report = await failureReports.record({ errorName: "Error", errorDetail: "boom" }, new Date(0));
    expect(await failureReports.remove(idsWith([report.id]))).toBe(1);
    expect(await failureReports.list()).toEqual([]);
  });

  test("a list of as many ids as are bound one by one, and one of one more, answer alike", async () => {
    const { notebookId, headNoteId } = await importInto("Threshold");
    const child = await write((s) => note(s, notebookId, headNoteId, "Threshold child"));
    for (const count of [IDS_BOUND_ONE_BY_ONE, IDS_BOUND_ONE_BY_ONE + 1]) {
      const rows = await under.stores.noteRevisions.revisionsOf(idsWith([child, headNoteId], count));
      expect(sorted(rows.map((row) => row.id))).toEqual(sorted([headNoteId, child]));
      const live = await under.stores.notes.liveNotebooks({ ids: idsWith([notebookId], count) });
      expect(live.map((row) => row.notebook.id)).toEqual([notebookId]);
    }
  });

  test("a list beyond SQLite's own limit of parameters (250,000 in Bun's build) answers too", async () => {
    const { headNoteId } = await importInto("Beyond");
    const rows = await under.stores.noteRevisions.revisionsOf(idsWith([headNoteId], 260_000));
    expect(rows.map((row) => row.id)).toEqual([headNoteId]);
  });
});
