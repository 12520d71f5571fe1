import type { AppContext } from "../../context";
import type { NoteRow } from "../notes/rows";
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
function imageSourceOf(note: NoteRow, ancestors: NoteRow[]): ImageSource | undefined {
  if (!note.useParentImage) return hasOwnImage(note) ? note : undefined;
  return [...ancestors].reverse().find((ancestor) => !ancestor.useParentImage && hasOwnImage(ancestor));
}

/**
 * Presents a note's accessory, resolving which image it shows. `ancestors` (root first), when
 * the caller has them, spare a read; a note without an uploaded image to show needs no other.
 */
export async function presentNoteAccessory(ctx: AppContext, note: NoteRow, ancestors?: NoteRow[]): Promise<NoteAccessoryJson> {
  const source = imageSourceOf(note, note.useParentImage ? (ancestors ?? (await ctx.stores.notes.ancestorsOf(note))) : []);
  const imageIds = [...new Set([note.imageId, source?.imageId].filter((id): id is number => id !== null && id !== undefined))];
  const types = imageIds.length === 0 ? new Map<number, string>() : await ctx.stores.notes.imageContentTypes(imageIds);
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
