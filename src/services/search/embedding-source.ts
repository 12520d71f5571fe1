import { truncateUtf8 } from "../../ai/embeddings";

/**
 * The text embedded for a note (as the reference's combineNoteContent): a line "Context: " with
 * the non-blank ancestor titles joined by " › " (root first) when there are any, "Title: <title>",
 * then "Details:" on its own line followed by the details when they are not blank. At most
 * 15,000 UTF-8 bytes.
 */
export function embeddingSource(note: { title: string; details: string }, ancestorTitles: string[]): string {
  const lines: string[] = [];
  const path = ancestorTitles.map((title) => title.trim()).filter(Boolean);
  if (path.length > 0) lines.push(`Context: ${path.join(" › ")}`);
  lines.push(`Title: ${note.title}`);
  lines.push("Details:");
  if (note.details.trim()) lines.push(note.details);
  return truncateUtf8(lines.join("\n"));
}

/** The search key as it is embedded: trimmed and cut like a note's text. */
export function searchKeySource(searchKey: string): string {
  return truncateUtf8(searchKey.trim());
}

/** Identifies what was embedded, with which model: an unchanged note is not embedded again. */
export function sourceHash(model: string, source: string): string {
  return new Bun.CryptoHasher("sha256").update(model).update("\n").update(source).digest("hex");
}

/** A vector as the float32 little-endian blob sqlite-vec reads. */
export function vectorBlob(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}
