import { and, eq, ne } from "drizzle-orm";
import type { AppContext } from "../../context";
import { noteImages, notes } from "../../db/schema";
import { BadRequestError, NotFoundError, ValidationError } from "../errors";
import { getNote, getNotebook, type NoteRow } from "../notes/rows";
import { authorizeEdit, authorizeRead, notebookAccess } from "../policies";
import type { CurrentUser } from "../users";
import { type NoteAccessoryJson, presentNoteAccessory } from "./presenter";
import { type AccessoryChanges, readAccessoryChanges } from "./validation";

/** A note's accessory (URL, image with mask), for a user who may read the note. */
export function showNoteAccessory(ctx: AppContext, current: CurrentUser | undefined, noteId: number): NoteAccessoryJson {
  const note = getNote(ctx, noteId);
  authorizeRead(ctx, current, getNotebook(ctx, note.notebookId));
  return presentNoteAccessory(ctx, note);
}

/** The columns an update sets. An upload replaces an image URL, and an image URL replaces an upload. */
function columnsFor(changes: AccessoryChanges, uploadedImageId: number | undefined): Partial<NoteRow> {
  const set: Partial<NoteRow> = {};
  if (changes.url !== undefined) set.url = changes.url;
  if (changes.imageMask !== undefined) set.imageMask = changes.imageMask;
  if (changes.useParentImage !== undefined) set.useParentImage = changes.useParentImage;
  if (changes.upload === null) set.imageId = null;
  if (changes.imageUrl !== undefined) {
    set.imageUrl = changes.imageUrl;
    if (changes.imageUrl !== null) set.imageId = null;
  }
  if (uploadedImageId !== undefined) {
    set.imageId = uploadedImageId;
    set.imageUrl = null;
  }
  return set;
}

/**
 * PATCH /api/notes/{note} (multipart): changes the note's URL and image. Fields left out stay;
 * an empty field clears its value. Uploaded images are stored in the database, checked by their
 * bytes. An image no other note uses any more is deleted.
 */
export async function updateNoteAccessories(
  ctx: AppContext,
  current: CurrentUser,
  noteId: number,
  body: unknown,
): Promise<NoteAccessoryJson> {
  const note = getNote(ctx, noteId);
  authorizeEdit(ctx, current, getNotebook(ctx, note.notebookId));
  if (note.deletedAt) throw new BadRequestError("The note has been deleted");
  const changes = await readAccessoryChanges(body);
  if (changes.useParentImage && note.parentId === null) {
    throw new ValidationError({ useParentImage: "A notebook's head note has no parent image to use" });
  }
  if (Object.keys(changes).length === 0) return presentNoteAccessory(ctx, note);
  const updated = ctx.db.transaction((tx) => {
    const now = ctx.clock.now();
    const uploadedImageId = changes.upload
      ? tx
          .insert(noteImages)
          .values({
            userId: current.user.id,
            contentType: changes.upload.contentType,
            bytes: Buffer.from(changes.upload.bytes),
            createdAt: now,
          })
          .returning({ id: noteImages.id })
          .get().id
      : undefined;
    const row = tx
      .update(notes)
      .set({ ...columnsFor(changes, uploadedImageId), updatedAt: now })
      .where(eq(notes.id, note.id))
      .returning()
      .get()!;
    if (note.imageId !== null && row.imageId !== note.imageId) {
      const stillUsed = tx
        .select({ id: notes.id })
        .from(notes)
        .where(and(eq(notes.imageId, note.imageId), ne(notes.id, note.id)))
        .get();
      if (!stillUsed) tx.delete(noteImages).where(eq(noteImages.id, note.imageId)).run();
    }
    return row;
  });
  return presentNoteAccessory(ctx, updated);
}

export interface StoredImage {
  contentType: string;
  bytes: Uint8Array<ArrayBuffer>;
}

/**
 * An uploaded image, for a user who may read a note that uses it (404 when no note uses it,
 * 401/403 when the user may read none of them).
 */
export function imageForReader(ctx: AppContext, current: CurrentUser | undefined, imageId: number): StoredImage {
  const image = ctx.db.select().from(noteImages).where(eq(noteImages.id, imageId)).get();
  if (!image) throw new NotFoundError("Image");
  const notebookIds = [
    ...new Set(
      ctx.db
        .select({ notebookId: notes.notebookId })
        .from(notes)
        .where(eq(notes.imageId, imageId))
        .all()
        .map((row) => row.notebookId),
    ),
  ];
  if (notebookIds.length === 0) throw new NotFoundError("Image");
  const readable = notebookIds.some((id) => notebookAccess(ctx, current, getNotebook(ctx, id)) !== "none");
  if (!readable) authorizeRead(ctx, current, getNotebook(ctx, notebookIds[0]!));
  return { contentType: image.contentType, bytes: new Uint8Array(image.bytes) };
}
