/**
 * The files of notebooks and notes: a notebook's attachments (kept from an Obsidian import) and
 * images uploaded for notes. An import stages its files under keys of their own until it
 * publishes them: staged files are not the notebook's.
 */
import { and, eq, inArray, isNull, ne, notLike } from "drizzle-orm";
import type { notebookAttachments, noteImages } from "../../db/schema";
import { STAGED_PATH_KEYS } from "../../services/vaults/attachment-keys";
import { all, forUpdate, one, run, type Session, type Step } from "../session";
import type { NoteRow } from "./note-rows";

export type AttachmentRow = typeof notebookAttachments.$inferSelect;
export type NoteImageRow = typeof noteImages.$inferSelect;

/** Rows per IN list of ids whose rows carry bytes (a bounded batch in memory). */
const BYTES_CHUNK = 100;

const published = (s: Session) => notLike(s.t.notebookAttachments.pathKey, STAGED_PATH_KEYS);

/** Every published attachment of a notebook: id, path and type (no bytes). */
export function* attachmentsOf(s: Session, notebookId: number): Step<{ id: number; path: string; contentType: string }[]> {
  const a = s.t.notebookAttachments;
  return yield* all(
    s,
    s.db
      .select({ id: a.id, path: a.path, contentType: a.contentType })
      .from(a)
      .where(and(eq(a.notebookId, notebookId), published(s))),
  );
}

/** A published attachment by its id, with its bytes. */
export function* attachmentById(s: Session, id: number): Step<AttachmentRow | undefined> {
  const a = s.t.notebookAttachments;
  return yield* one(
    s,
    s.db
      .select()
      .from(a)
      .where(and(eq(a.id, id), published(s))),
  );
}

/** Attachments by id, with their bytes. */
export function* attachmentsByIds(s: Session, ids: number[]): Step<AttachmentRow[]> {
  const a = s.t.notebookAttachments;
  const rows: AttachmentRow[] = [];
  for (let i = 0; i < ids.length; i += BYTES_CHUNK)
    rows.push(
      ...(yield* all(
        s,
        s.db
          .select()
          .from(a)
          .where(inArray(a.id, ids.slice(i, i + BYTES_CHUNK))),
      )),
    );
  return rows;
}

/** Whether a note has an undeleted child that is not a link (it is a folder in its notebook's vault). */
export function* hasChildNote(s: Session, noteId: number): Step<boolean> {
  const { notes } = s.t;
  const child = yield* one(
    s,
    s.db
      .select({ id: notes.id })
      .from(notes)
      .where(and(eq(notes.parentId, noteId), isNull(notes.targetNoteId), isNull(notes.deletedAt)))
      .limit(1),
  );
  return child !== undefined;
}

/** Uploaded images by id, with their bytes. */
export function* imagesByIds(s: Session, ids: number[]): Step<NoteImageRow[]> {
  const i = s.t.noteImages;
  const rows: NoteImageRow[] = [];
  for (let at = 0; at < ids.length; at += BYTES_CHUNK)
    rows.push(
      ...(yield* all(
        s,
        s.db
          .select()
          .from(i)
          .where(inArray(i.id, ids.slice(at, at + BYTES_CHUNK))),
      )),
    );
  return rows;
}

/** The content types of uploaded images, by id. */
export function* imageContentTypes(s: Session, ids: number[]): Step<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const i = s.t.noteImages;
  const rows = yield* all(s, s.db.select({ id: i.id, contentType: i.contentType }).from(i).where(inArray(i.id, ids)));
  return new Map(rows.map((row) => [row.id, row.contentType]));
}

/** An uploaded image and the notebooks of the notes that use it (none: no note shows it). */
export function* imageWithNotebooks(s: Session, imageId: number): Step<{ image: NoteImageRow; notebookIds: number[] } | undefined> {
  const { noteImages: i, notes } = s.t;
  const image = yield* one(s, s.db.select().from(i).where(eq(i.id, imageId)));
  if (!image) return undefined;
  const rows = yield* all(s, s.db.selectDistinct({ notebookId: notes.notebookId }).from(notes).where(eq(notes.imageId, imageId)));
  return { image, notebookIds: rows.map((row) => row.notebookId) };
}

/** What an accessory update sets: the note's own columns, and an image to upload (replacing the note's). */
export interface AccessoryUpdate {
  columns: Partial<Pick<NoteRow, "url" | "imageUrl" | "imageMask" | "useParentImage" | "imageId">>;
  upload?: { userId: number; contentType: string; bytes: Uint8Array };
}

/**
 * Changes a note's URL and image in one unit: the upload is stored, the note points at it (and
 * no longer at an image URL), and an image no other note uses any more is deleted. Answers the note.
 */
export function* updateAccessories(s: Session, noteId: number, update: AccessoryUpdate, now: Date): Step<NoteRow | undefined> {
  const { notes, noteImages } = s.t;
  // Locked until the unit ends (PostgreSQL; a SQLite write unit is the only writer): updates of one
  // note take turns, each deleting the image the one before left, so none is left unused.
  const before = yield* one(s, forUpdate(s, s.db.select({ imageId: notes.imageId }).from(notes).where(eq(notes.id, noteId))));
  if (!before) return undefined;
  const columns = { ...update.columns };
  if (update.upload) {
    const uploaded = yield* one(
      s,
      s.db
        .insert(noteImages)
        .values({
          userId: update.upload.userId,
          contentType: update.upload.contentType,
          bytes: Buffer.from(update.upload.bytes),
          createdAt: now,
        })
        .returning({ id: noteImages.id }),
    );
    columns.imageId = uploaded!.id;
    columns.imageUrl = null;
  }
  const row = yield* one(
    s,
    s.db
      .update(notes)
      .set({ ...columns, updatedAt: now })
      .where(eq(notes.id, noteId))
      .returning(),
  );
  if (before.imageId !== null && row!.imageId !== before.imageId) {
    const stillUsed = yield* one(
      s,
      s.db
        .select({ id: notes.id })
        .from(notes)
        .where(and(eq(notes.imageId, before.imageId), ne(notes.id, noteId)))
        .limit(1),
    );
    if (!stillUsed) yield* run(s, s.db.delete(noteImages).where(eq(noteImages.id, before.imageId)));
  }
  return row;
}
