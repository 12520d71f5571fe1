/**
 * The files a notebook keeps beside its notes (what an Obsidian vault's notes embed or link to):
 * images, audio, video and PDF, recognised by their bytes (never by the name alone), each at most
 * MAX_ATTACHMENT_BYTES. How the page shows an embed is chosen by its kind.
 */
import { detectImageType } from "../accessories/image-bytes";

/** Largest attachment kept, in bytes (32 MiB): a vault's screenshots, recordings and short videos. */
export const MAX_ATTACHMENT_BYTES = 32 * 1024 * 1024;

export type AttachmentKind = "image" | "audio" | "video" | "pdf";

export interface AttachmentType {
  contentType: string;
  kind: AttachmentKind;
}

const ascii = (bytes: Uint8Array, offset: number, length: number) => String.fromCharCode(...bytes.subarray(offset, offset + length));
const extension = (name: string) => /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? "";

const AUDIO_EXTENSIONS = new Set(["mp3", "wav", "m4a", "ogg", "oga", "opus", "flac", "weba", "3gp"]);

/** An SVG drawing: XML text whose first element is <svg>. */
function isSvg(bytes: Uint8Array): boolean {
  const head = new TextDecoder("utf-8", { fatal: false }).decode(bytes.subarray(0, 4096)).replace(/^\uFEFF/, "");
  const rest = head.replace(/^\s*(<\?xml[^>]*\?>\s*)?((<!--[\s\S]*?-->|<!DOCTYPE[^>]*>)\s*)*/i, "");
  return /^<svg[\s>]/i.test(rest);
}

/**
 * The type of an attachment's bytes, read from their magic numbers; the file name only tells
 * audio from video where a container holds either (MP4, Ogg, WebM). Undefined for anything else.
 */
export function detectAttachmentType(bytes: Uint8Array, name: string): AttachmentType | undefined {
  const ext = extension(name);
  const audio = AUDIO_EXTENSIONS.has(ext);
  const image = detectImageType(bytes);
  if (image) return { contentType: image, kind: "image" };
  if (ascii(bytes, 0, 5) === "%PDF-") return { contentType: "application/pdf", kind: "pdf" };
  if (ascii(bytes, 0, 3) === "ID3" || (bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0 && ext === "mp3"))
    return { contentType: "audio/mpeg", kind: "audio" };
  if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 4) === "WAVE") return { contentType: "audio/wav", kind: "audio" };
  if (ascii(bytes, 0, 4) === "fLaC") return { contentType: "audio/flac", kind: "audio" };
  if (ascii(bytes, 0, 4) === "OggS")
    return audio ? { contentType: "audio/ogg", kind: "audio" } : { contentType: "video/ogg", kind: "video" };
  if (ascii(bytes, 4, 4) === "ftyp") {
    const brand = ascii(bytes, 8, 4);
    if (audio || brand === "M4A " || brand === "M4B ") return { contentType: "audio/mp4", kind: "audio" };
    return brand === "qt  " ? { contentType: "video/quicktime", kind: "video" } : { contentType: "video/mp4", kind: "video" };
  }
  if (bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3)
    return audio ? { contentType: "audio/webm", kind: "audio" } : { contentType: "video/webm", kind: "video" };
  if (ext === "svg" && isSvg(bytes)) return { contentType: "image/svg+xml", kind: "image" };
  return undefined;
}

const KIND_BY_EXTENSION: Record<string, AttachmentKind> = {
  png: "image",
  jpg: "image",
  jpeg: "image",
  gif: "image",
  webp: "image",
  svg: "image",
  mp3: "audio",
  wav: "audio",
  m4a: "audio",
  ogg: "audio",
  oga: "audio",
  opus: "audio",
  flac: "audio",
  weba: "audio",
  mp4: "video",
  m4v: "video",
  mov: "video",
  webm: "video",
  ogv: "video",
  pdf: "pdf",
};

/** What an embed's file name says it is, for the page to choose an image, a player or a link. */
export const kindOfName = (name: string): AttachmentKind | undefined => KIND_BY_EXTENSION[extension(name)];
