import { queryOptions } from "@tanstack/react-query";
import { api, call } from "../api";

export type { ImageWithMaskJson, NoteAccessoryJson } from "../../../src/services/accessories/presenter";

/** A note's accessory (URL, image with mask); the server may prefetch it under the same key. */
export const noteAccessoryQuery = (noteId: number) =>
  queryOptions({
    queryKey: ["note-accessory", noteId],
    queryFn: () => call(api.notes({ note: noteId }).accessory.get(), { silent: true }),
  });

/** The saved accessory, as PATCH /api/notes/{note} answers it (multipart form fields when a file is sent). */
export const saveNoteAccessories = (noteId: number, form: FormData) =>
  call(api.notes({ note: noteId }).patch(Object.fromEntries(form) as Record<string, string | File>));

export type MaskRectangle = { x: number; y: number; width: number; height: number };

/** The mask's numbers taken four at a time as x, y, width, height (a trailing incomplete group is ignored). */
export function maskRectangles(mask: string | undefined): MaskRectangle[] {
  const numbers = (mask ?? "").trim().split(/\s+/).filter(Boolean).map(Number);
  const rectangles: MaskRectangle[] = [];
  for (let i = 0; i + 3 < numbers.length; i += 4) {
    const [x, y, width, height] = numbers.slice(i, i + 4) as [number, number, number, number];
    if ([x, y, width, height].every(Number.isFinite)) rectangles.push({ x, y, width, height });
  }
  return rectangles;
}
