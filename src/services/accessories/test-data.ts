/**
 * For the inject_notes test hook: the note columns of a row's "Image Url" and "Image Mask"
 * (blank or missing leaves them empty). Test data is trusted, so it is only trimmed, not validated.
 * Spread the result into the values of the inserted note.
 */
export function accessoryColumnsOfTestRow(row: { "Image Url"?: string | null; "Image Mask"?: string | null }): {
  imageUrl: string | null;
  imageMask: string | null;
} {
  const imageUrl = row["Image Url"]?.trim() || null;
  const imageMask = row["Image Mask"]?.trim().split(/\s+/).join(" ") || null;
  return { imageUrl, imageMask };
}
