/**
 * The notes store's bodies for the imports (src/operations), run by an import's worker on its own
 * connection: the images and the notebook's files it stores as it reads, their publishing, and
 * the removal of what it wrote and did not publish when it fails (the operations store composes
 * them, a batch per unit).
 */
import { and, eq, inArray, isNotNull, isNull, ne, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { all, inIds, lockRow, one, rawRun, run, type Session, type Step } from "../session";
import { noteById } from "./note-rows";

/** The new notebooks let go of their head notes (the notes are removed in batches, not by the notebook's cascade). */
export function* releaseHeadNotes(s: Session, notebookIds: number[]): Step<void> {
  if (notebookIds.length === 0) return;
  const { notebooks } = s.t;
  yield* run(
    s,
    s.db
      .update(notebooks)
      .set({ headNoteId: null })
      .where(inIds(s, notebooks.id, notebookIds)),
  );
}

/**
 * Removes notes an import wrote (the caller passes children and links before what they point
 * at). Images they point at go only when they are the import's own (removed by removeImages).
 */
export function* removeNotes(s: Session, noteIds: number[]): Step<void> {
  if (noteIds.length === 0) return;
  const { notes } = s.t;
  yield* run(s, s.db.update(notes).set({ imageId: null }).where(inArray(notes.id, noteIds)));
  yield* run(s, s.db.delete(notes).where(inArray(notes.id, noteIds)));
}

export function* removeImages(s: Session, imageIds: number[]): Step<void> {
  if (imageIds.length === 0) return;
  const { noteImages } = s.t;
  yield* run(s, s.db.delete(noteImages).where(inIds(s, noteImages.id, imageIds)));
}

export function* removeAttachments(s: Session, attachmentIds: number[]): Step<void> {
  if (attachmentIds.length === 0) return;
  const { notebookAttachments } = s.t;
  yield* run(s, s.db.delete(notebookAttachments).where(inArray(notebookAttachments.id, attachmentIds)));
}

export function* removeNotebooks(s: Session, notebookIds: number[]): Step<void> {
  if (notebookIds.length === 0) return;
  const { notebooks } = s.t;
  yield* run(s, s.db.delete(notebooks).where(inArray(notebooks.id, notebookIds)));
}

/** Stores an image an import read; answers its id. */
export function* storeImage(s: Session, userId: number, image: { bytes: Buffer; contentType: string }, now: number): Step<number> {
  const { noteImages } = s.t;
  const [stored] = yield* all(
    s,
    s.db
      .insert(noteImages)
      .values({ userId, contentType: image.contentType, bytes: image.bytes, createdAt: new Date(now) })
      .returning({ id: noteImages.id }),
  );
  return stored!.id;
}

/** The bytes of the notebook's file at a path (as compared: its path key), if there is one. */
export function* attachmentBytes(s: Session, notebookId: number, pathKey: string): Step<Uint8Array | undefined> {
  const { notebookAttachments: a } = s.t;
  const row = yield* one(
    s,
    s.db
      .select({ bytes: a.bytes })
      .from(a)
      .where(and(eq(a.notebookId, notebookId), eq(a.pathKey, pathKey))),
  );
  return row?.bytes;
}

/** Stores a file for the notebook under a staged path key (not the notebook's file yet); answers its id. */
export function* stageAttachment(
  s: Session,
  attachment: { notebookId: number; path: string; stagedPathKey: string; contentType: string; bytes: Buffer },
  now: number,
): Step<number> {
  const { notebookAttachments: a } = s.t;
  const [stored] = yield* all(
    s,
    s.db
      .insert(a)
      .values({
        notebookId: attachment.notebookId,
        path: attachment.path,
        pathKey: attachment.stagedPathKey,
        contentType: attachment.contentType,
        bytes: attachment.bytes,
        createdAt: new Date(now),
      })
      .returning({ id: a.id }),
  );
  return stored!.id;
}

/**
 * The staged files take their place in the notebook (their path keys lose the staging prefix of
 * `prefixLength` characters), replacing a file of the same path: a changed file gets a new id
 * (its address is cached as never changing).
 */
export function* publishStagedAttachments(s: Session, notebookId: number, stagedIds: number[], prefixLength: number): Step<void> {
  if (stagedIds.length === 0) return;
  const { notebookAttachments: a } = s.t;
  const unstaged = sql<string>`substr(${a.pathKey}, ${prefixLength + 1})`;
  const replacedKeys = s.db
    .select({ key: unstaged })
    .from(a)
    .where(inIds(s, a.id, stagedIds));
  yield* run(s, s.db.delete(a).where(and(eq(a.notebookId, notebookId), inArray(a.pathKey, replacedKeys))));
  yield* run(
    s,
    s.db
      .update(a)
      .set({ pathKey: unstaged })
      .where(inIds(s, a.id, stagedIds)),
  );
}

type NoteRow = typeof import("../../db/schema").notes.$inferSelect;

/** The notebook's head note, if the notebook and its head are there (deleted or not). */
export function* headNote(s: Session, notebookId: number): Step<NoteRow | undefined> {
  const { notebooks, notes } = s.t;
  const notebook = yield* one(s, s.db.select({ head: notebooks.headNoteId }).from(notebooks).where(eq(notebooks.id, notebookId)));
  if (!notebook?.head) return undefined;
  return yield* one(s, s.db.select().from(notes).where(eq(notes.id, notebook.head)));
}

/** A stored image's bytes (to compare with an imported one), if it is there. */
export function* imageBytes(s: Session, imageId: number): Step<Uint8Array | undefined> {
  const { noteImages } = s.t;
  return (yield* one(s, s.db.select({ bytes: noteImages.bytes }).from(noteImages).where(eq(noteImages.id, imageId))))?.bytes;
}

/** A note's undeleted children that are not links, in their order (an import matches them by title). */
export function* liveChildren(s: Session, parentId: number): Step<NoteRow[]> {
  const { notes } = s.t;
  return yield* all(
    s,
    s.db
      .select()
      .from(notes)
      .where(and(eq(notes.parentId, parentId), isNull(notes.deletedAt), isNull(notes.targetNoteId)))
      .orderBy(notes.siblingOrder),
  );
}

/** The notebook's undeleted links: each one's parent, type (title) and target. */
export function* linksOfNotebook(
  s: Session,
  notebookId: number,
): Step<{ parentId: number | null; title: string; targetNoteId: number | null }[]> {
  const { notes } = s.t;
  return yield* all(
    s,
    s.db
      .select({ parentId: notes.parentId, title: notes.title, targetNoteId: notes.targetNoteId })
      .from(notes)
      .where(and(eq(notes.notebookId, notebookId), isNull(notes.deletedAt), isNotNull(notes.targetNoteId))),
  );
}

/** A change an import makes to an existing note when it publishes. */
export interface ImportedUpdate {
  noteId: number;
  set: Partial<Pick<NoteRow, "title" | "details" | "wikidataId" | "url" | "imageId" | "imageUrl">>;
  /** The note's title and details as the import read them, to tell an edit made since. */
  read: Pick<NoteRow, "title" | "details">;
  /** The note's image before: removed when the update replaced it and no other note shows it. */
  oldImageId: number | null;
}

/**
 * What an import writes into a text that was edited since the import read it: `mergeTexts`'
 * answer for (what the import read, the text now, the import's text); undefined keeps the text now.
 */
export type ImportedTextMerge = (read: string, now: string, imported: string) => string | undefined;

/**
 * Applies an import's changes to existing notes (inside its publishing unit). A title or details
 * edited since the import read them is merged with the import's (`merge`), never overwritten:
 * answers the notes and fields whose edit was kept instead of the import's text.
 */
export function* applyImportedUpdates(
  s: Session,
  updates: ImportedUpdate[],
  now: Date,
  merge: ImportedTextMerge,
): Step<{ noteId: number; field: "title" | "details" }[]> {
  const { notes, noteImages } = s.t;
  const kept: { noteId: number; field: "title" | "details" }[] = [];
  for (const { noteId, set: planned, read, oldImageId } of updates) {
    const set = { ...planned };
    if (set.title !== undefined || set.details !== undefined) {
      yield* lockRow(s, notes, noteId);
      const current = yield* noteById(s, noteId);
      for (const field of ["title", "details"] as const) {
        const imported = set[field];
        if (imported === undefined || !current || current[field] === read[field]) continue;
        const merged = merge(read[field], current[field], imported);
        if (merged === undefined) {
          delete set[field];
          kept.push({ noteId, field });
        } else set[field] = merged;
      }
    }
    yield* run(
      s,
      s.db
        .update(notes)
        .set({ ...set, updatedAt: now })
        .where(eq(notes.id, noteId)),
    );
    if (set.imageId !== undefined && oldImageId !== null) {
      const stillUsed = yield* one(
        s,
        s.db
          .select({ id: notes.id })
          .from(notes)
          .where(and(eq(notes.imageId, oldImageId), ne(notes.id, noteId)))
          .limit(1),
      );
      if (!stillUsed) yield* run(s, s.db.delete(noteImages).where(eq(noteImages.id, oldImageId)));
    }
  }
  return kept;
}

/**
 * Shows an import's hidden notes. A new note whose existing parent was deleted meanwhile goes
 * with that deletion instead (undo restores it with its parent), level by level down the new notes.
 */
export function* showHiddenNotes(s: Session, noteIds: number[]): Step<void> {
  if (noteIds.length === 0) return;
  const { notes } = s.t;
  for (let i = 0; i < noteIds.length; i += 500) {
    yield* run(
      s,
      s.db
        .update(notes)
        .set({ deletedAt: null })
        .where(inArray(notes.id, noteIds.slice(i, i + 500))),
    );
  }
  const parent = alias(notes, "parent");
  for (let depth = 0; depth < 200; depth++) {
    let changed = 0;
    for (let i = 0; i < noteIds.length; i += 500) {
      const chunk = noteIds.slice(i, i + 500);
      changed += yield* rawRun(
        s,
        sql`UPDATE ${notes} SET ${sql.identifier(notes.deletedAt.name)} = ${parent.deletedAt},
              ${sql.identifier(notes.deletionRootId.name)} = COALESCE(${parent.deletionRootId}, ${parent.id})
            FROM ${notes} ${parent} WHERE ${parent.id} = ${notes.parentId} AND ${parent.deletedAt} IS NOT NULL
              AND ${notes.deletedAt} IS NULL AND ${inArray(notes.id, chunk)}`,
      );
    }
    if (changed === 0) break;
  }
}

/**
 * A new notebook of `creatorId` with its head note titled `title`, both hidden (the head note
 * deleted at `now`) until the import publishes them. Answers the head note.
 */
export function* importedNotebook(s: Session, creatorId: number, title: string, now: Date): Step<NoteRow> {
  const { notebooks, notes } = s.t;
  const [notebook] = yield* all(
    s,
    s.db.insert(notebooks).values({ creatorId, createdAt: now, updatedAt: now }).returning({ id: notebooks.id }),
  );
  const [head] = yield* all(
    s,
    s.db
      .insert(notes)
      .values({ notebookId: notebook!.id, parentId: null, siblingOrder: 0, title, deletedAt: now, createdAt: now, updatedAt: now })
      .returning(),
  );
  yield* run(s, s.db.update(notebooks).set({ headNoteId: head!.id }).where(eq(notebooks.id, notebook!.id)));
  return head!;
}
