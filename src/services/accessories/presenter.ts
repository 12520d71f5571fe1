import { inArray } from "drizzle-orm";
import type { AppContext } from "../../context";
import { noteImages } from "../../db/schema";
import { ancestorsOf, type NoteRow } from "../notes/rows";
import { extensionOf } from "./image-bytes";

/** ImageWithMask: the address of the image to show and the mask drawn over it. */
export interface ImageWithMaskJson {
  noteImage: string;
  imageMask?: string;
}

/** The NoteAccessory JSON of the reference's API contract (id is the note's id). */
export interface NoteAccessoryJson {
  id: number;
  url?: string;
  imageUrl?: string;
  imageMask?: string;
  useParentImage: boolean;
  /** What the note shows: its own image (uploaded, else by URL) or, with useParentImage, the nearest ancestor's. */
  imageWithMask?: ImageWithMaskJson;
  /** Engram addition: the address of the note's own uploaded image, so the edit dialog can offer to remove it. */
  uploadedImage?: string;
}

/** Where an uploaded image is served; the last segment only gives browsers a sensible file name. */
export function uploadedImagePath(imageId: number, contentType: string): string {
  return `/api/images/${imageId}/image.${extensionOf(contentType)}`;
}

type ImageSource = Pick<NoteRow, "imageId" | "imageUrl">;

const hasOwnImage = (note: ImageSource) => note.imageId !== null || !!note.imageUrl;

/**
 * The image a note shows: with useParentImage, the nearest ancestor that shows an image of its
 * own (ancestors that use their parent's image are passed over); otherwise its own image.
 */
function imageSourceOf(ctx: AppContext, note: NoteRow): ImageSource | undefined {
  if (!note.useParentImage) return hasOwnImage(note) ? note : undefined;
  return ancestorsOf(ctx, note)
    .reverse()
    .find((ancestor) => !ancestor.useParentImage && hasOwnImage(ancestor));
}

function contentTypes(ctx: AppContext, imageIds: number[]): Map<number, string> {
  if (imageIds.length === 0) return new Map();
  const rows = ctx.db
    .select({ id: noteImages.id, contentType: noteImages.contentType })
    .from(noteImages)
    .where(inArray(noteImages.id, imageIds))
    .all();
  return new Map(rows.map((row) => [row.id, row.contentType]));
}

/** Presents a note's accessory, resolving which image it shows. */
export function presentNoteAccessory(ctx: AppContext, note: NoteRow): NoteAccessoryJson {
  const source = imageSourceOf(ctx, note);
  const types = contentTypes(ctx, [
    ...new Set([note.imageId, source?.imageId].filter((id): id is number => id !== null && id !== undefined)),
  ]);
  const pathOf = (imageId: number | null | undefined) => {
    const type = imageId === null || imageId === undefined ? undefined : types.get(imageId);
    return type === undefined ? undefined : uploadedImagePath(imageId!, type);
  };
  const shown = source ? (pathOf(source.imageId) ?? source.imageUrl ?? undefined) : undefined;
  const uploadedImage = pathOf(note.imageId);
  return {
    id: note.id,
    ...(note.url ? { url: note.url } : {}),
    ...(note.imageUrl ? { imageUrl: note.imageUrl } : {}),
    ...(note.imageMask ? { imageMask: note.imageMask } : {}),
    useParentImage: note.useParentImage,
    ...(shown ? { imageWithMask: { noteImage: shown, ...(note.imageMask ? { imageMask: note.imageMask } : {}) } } : {}),
    ...(uploadedImage ? { uploadedImage } : {}),
  };
}
