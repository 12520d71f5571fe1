/** Uploaded note images: which kinds are accepted and how big they may be. */

/** Largest accepted upload, in bytes (5 MiB). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

export type ImageContentType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

const EXTENSIONS: Record<ImageContentType, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
};

const startsWith = (bytes: Uint8Array, signature: number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((byte, i) => bytes[offset + i] === byte);

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/**
 * The image type of these bytes, read from their magic numbers (never from the file's name or
 * the type the client declared); undefined when they are not a PNG, JPEG, GIF or WebP image.
 */
export function detectImageType(bytes: Uint8Array): ImageContentType | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) return "image/gif";
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "image/webp";
  return undefined;
}

/** The file extension used in an uploaded image's address (cosmetic: the route ignores it). */
export function extensionOf(contentType: string): string {
  return EXTENSIONS[contentType as ImageContentType] ?? "img";
}
