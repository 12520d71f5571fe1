import { BadRequestError, ValidationError } from "../errors";
import { detectImageType, type ImageContentType, MAX_IMAGE_BYTES } from "./image-bytes";

export const MAX_URL_LENGTH = 2048;
/** At most this many mask rectangles (four numbers each). */
export const MAX_MASK_RECTANGLES = 250;

const URL_MESSAGE = "must be an http or https URL";
const MASK_MESSAGE = "must be groups of four non-negative numbers: x y width height";
const BOOLEAN_MESSAGE = "must be true or false";
const IMAGE_TYPE_MESSAGE = "must be a PNG, JPEG, GIF or WebP image";
const IMAGE_SIZE_MESSAGE = "The image must be at most 5 MiB";
const ONCE_MESSAGE = "must be given once";

/**
 * What an accessories update changes. A field left out stays as it is; null clears it
 * (an empty field clears it). `upload: null` removes the uploaded image.
 */
export interface AccessoryChanges {
  url?: string | null;
  imageUrl?: string | null;
  imageMask?: string | null;
  useParentImage?: boolean;
  upload?: { bytes: Uint8Array; contentType: ImageContentType } | null;
}

/** An optional http(s) URL: empty clears it. */
function validHttpUrl(value: string): string | null {
  const trimmed = value.trim();
  if (trimmed === "") return null;
  if (trimmed.length > MAX_URL_LENGTH) throw new Error(`must be at most ${MAX_URL_LENGTH} characters`);
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    throw new Error(URL_MESSAGE);
  }
  if ((parsed.protocol !== "http:" && parsed.protocol !== "https:") || !parsed.hostname) throw new Error(URL_MESSAGE);
  return trimmed;
}

/** An image mask: whitespace-separated non-negative numbers, four per rectangle; stored single-spaced. */
function validImageMask(value: string): string | null {
  const trimmed = value.trim();
  if (trimmed === "") return null;
  const numbers = trimmed.split(/\s+/);
  const wellFormed = numbers.every((n) => /^(\d+(\.\d*)?|\.\d+)$/.test(n));
  if (!wellFormed || numbers.length % 4 !== 0) throw new Error(MASK_MESSAGE);
  if (numbers.length > MAX_MASK_RECTANGLES * 4) throw new Error(`must have at most ${MAX_MASK_RECTANGLES} rectangles`);
  return numbers.join(" ");
}

function validBoolean(value: unknown): boolean {
  if (typeof value === "boolean") return value;
  if (value === "true" || value === "on") return true;
  if (value === "false" || value === "") return false;
  throw new Error(BOOLEAN_MESSAGE);
}

function validText(value: unknown, check: (text: string) => string | null): string | null {
  if (value === null) return null;
  if (typeof value !== "string") throw new Error("must be text");
  return check(value);
}

const isBlob = (value: unknown): value is Blob => typeof Blob !== "undefined" && value instanceof Blob;

/** The uploaded file checked by its bytes; an empty field (no file chosen) removes the upload. */
async function validUpload(value: unknown): Promise<AccessoryChanges["upload"]> {
  if (value === "" || value === null) return null;
  if (!isBlob(value)) throw new Error("must be an image file");
  const name = (value as File).name;
  if (value.size === 0 && !name) return null;
  if (value.size > MAX_IMAGE_BYTES) throw new Error(IMAGE_SIZE_MESSAGE);
  const bytes = new Uint8Array(await value.arrayBuffer());
  const contentType = detectImageType(bytes);
  if (!contentType) throw new Error(IMAGE_TYPE_MESSAGE);
  return { bytes, contentType };
}

/**
 * Reads an accessories update (multipart form fields, or the same names in JSON) and validates
 * every field, answering all field errors at once (400 with errors.url, errors.imageUrl,
 * errors.imageMask, errors.useParentImage, errors.uploadImage).
 */
export async function readAccessoryChanges(body: unknown): Promise<AccessoryChanges> {
  if (body === undefined || body === null || body === "") return {};
  if (typeof body !== "object" || Array.isArray(body)) throw new BadRequestError("The accessories must be form fields");
  const fields = body as Record<string, unknown>;
  const changes: AccessoryChanges = {};
  const errors: Record<string, string> = {};
  const read = async <T>(field: string, parse: (value: unknown) => T | Promise<T>, apply: (value: T) => void) => {
    if (!(field in fields) || fields[field] === undefined) return;
    try {
      if (Array.isArray(fields[field])) throw new Error(ONCE_MESSAGE);
      apply(await parse(fields[field]));
    } catch (error) {
      errors[field] = (error as Error).message;
    }
  };
  await read(
    "url",
    (v) => validText(v, validHttpUrl),
    (v) => (changes.url = v),
  );
  await read(
    "imageUrl",
    (v) => validText(v, validHttpUrl),
    (v) => (changes.imageUrl = v),
  );
  await read(
    "imageMask",
    (v) => validText(v, validImageMask),
    (v) => (changes.imageMask = v),
  );
  await read("useParentImage", validBoolean, (v) => (changes.useParentImage = v));
  await read("uploadImage", validUpload, (v) => (changes.upload = v));
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return changes;
}
