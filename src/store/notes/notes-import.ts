/**
 * The notes store's bodies for the imports (src/operations): what an import wrote and did not
 * publish is removed by these when it fails (the operations store composes them, a batch per unit).
 */
import { inArray } from "drizzle-orm";
import { run, type Session, type Step } from "../session";

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
