/**
 * The notes store's bodies for the imports (src/operations), run by an import's worker on its own
 * connection: the images and the notebook's files it stores as it reads, their publishing, and
 * the removal of what it wrote and did not publish when it fails (the operations store composes
 * them, a batch per unit).
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { all, one, run, type Session, type Step } from "../session";

/** The new notebooks let go of their head notes (the notes are removed in batches, not by the notebook's cascade). */
export function* releaseHeadNotes(s: Session, notebookIds: number[]): Step<void> {
  if (notebookIds.length === 0) return;
  const { notebooks } = s.t;
  yield* run(s, s.db.update(notebooks).set({ headNoteId: null }).where(inArray(notebooks.id, notebookIds)));
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
  yield* run(s, s.db.delete(noteImages).where(inArray(noteImages.id, imageIds)));
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
  const replacedKeys = s.db.select({ key: unstaged }).from(a).where(inArray(a.id, stagedIds));
  yield* run(s, s.db.delete(a).where(and(eq(a.notebookId, notebookId), inArray(a.pathKey, replacedKeys))));
  yield* run(s, s.db.update(a).set({ pathKey: unstaged }).where(inArray(a.id, stagedIds)));
}
