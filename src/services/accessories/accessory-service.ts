import type { AppContext } from "../../context";
import type { AccessoryUpdate } from "../../store/notes/notes-store";
import { BadRequestError, NotFoundError, ValidationError } from "../errors";
import { requireNoteWithNotebook } from "../notes/rows";
import { authorizeEdit, authorizeRead, notebookAccess } from "../policies";
import type { CurrentUser } from "../users";
import { type NoteAccessoryJson, presentNoteAccessory } from "./presenter";
import { type AccessoryChanges, readAccessoryChanges } from "./validation";

/** A note's accessory (URL, image with mask), for a user who may read the note. */
export async function showNoteAccessory(ctx: AppContext, current: CurrentUser | undefined, noteId: number): Promise<NoteAccessoryJson> {
  const { note, notebook } = await requireNoteWithNotebook(ctx, noteId);
  await authorizeRead(ctx, current, notebook);
  return presentNoteAccessory(ctx, note);
}

/** The columns an update sets. An image URL replaces an upload (an upload replaces an image URL: see the store). */
function columnsFor(changes: AccessoryChanges): AccessoryUpdate["columns"] {
  const set: AccessoryUpdate["columns"] = {};
  if (changes.url !== undefined) set.url = changes.url;
  if (changes.imageMask !== undefined) set.imageMask = changes.imageMask;
  if (changes.useParentImage !== undefined) set.useParentImage = changes.useParentImage;
  if (changes.upload === null) set.imageId = null;
  if (changes.imageUrl !== undefined) {
    set.imageUrl = changes.imageUrl;
    if (changes.imageUrl !== null) set.imageId = null;
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
  const { note, notebook } = await requireNoteWithNotebook(ctx, noteId);
  await authorizeEdit(ctx, current, notebook);
  if (note.deletedAt) throw new BadRequestError("The note has been deleted");
  const changes = await readAccessoryChanges(body);
  if (changes.useParentImage && note.parentId === null) {
    throw new ValidationError({ useParentImage: "A notebook's head note has no parent image to use" });
  }
  if (Object.keys(changes).length === 0) return presentNoteAccessory(ctx, note);
  const upload = changes.upload
    ? { userId: current.user.id, contentType: changes.upload.contentType, bytes: changes.upload.bytes }
    : undefined;
  const updated = await ctx.stores.notes.updateAccessories(note.id, { columns: columnsFor(changes), upload }, ctx.clock.now());
  if (!updated) throw new NotFoundError("Note");
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
export async function imageForReader(ctx: AppContext, current: CurrentUser | undefined, imageId: number): Promise<StoredImage> {
  const found = await ctx.stores.notes.imageWithNotebooks(imageId);
  if (!found || found.notebookIds.length === 0) throw new NotFoundError("Image");
  const notebooks = (await Promise.all(found.notebookIds.map((id) => ctx.stores.notes.notebookById(id)))).filter((n) => n !== undefined);
  const access = await Promise.all(notebooks.map((notebook) => notebookAccess(ctx, current, notebook)));
  const readable = access.some((one) => one !== "none");
  if (!readable) {
    if (!notebooks[0]) throw new NotFoundError("Notebook");
    await authorizeRead(ctx, current, notebooks[0]);
  }
  return { contentType: found.image.contentType, bytes: new Uint8Array(found.image.bytes) };
}
