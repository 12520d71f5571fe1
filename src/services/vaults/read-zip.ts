/**
 * Reads an uploaded zip within limits: a damaged archive, too many entries, too many bytes once
 * inflated (declared or actual: a zip bomb stops being inflated at the limit) or a path leaving
 * the archive is refused before anything is written.
 */

import { inflateRawSync } from "node:zlib";
import JSZip from "jszip";
import { entryPathParts } from "./names";

export const VAULT_LIMITS = {
  /** Largest zip accepted, in bytes (the route's body limit adds room for the multipart framing). */
  zipBytes: 100 * 1024 * 1024,
  /** Most entries (files and folders) in the zip. */
  entries: 20_000,
  /** Most bytes of all entries read, once inflated. */
  uncompressedBytes: 512 * 1024 * 1024,
  /** Largest Markdown file, in bytes. */
  markdownBytes: 2 * 1024 * 1024,
  /** Most notes one import creates or updates. */
  notes: 10_000,
  /** Deepest folder nesting (the tree is walked recursively). */
  depth: 100,
} as const;

/** Why an import cannot go ahead: answered as 400 "Failed to import file: <reason>". */
export class VaultImportError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "VaultImportError";
  }
}

export interface ZipEntry {
  /** Path parts inside the archive (NFC). */
  parts: string[];
  path: string;
  dir: boolean;
  declaredBytes: number;
  object: JSZip.JSZipObject;
}

interface JSZipStream {
  on(event: "data", listener: (chunk: Uint8Array) => void): JSZipStream;
  on(event: "error", listener: (error: Error) => void): JSZipStream;
  on(event: "end", listener: () => void): JSZipStream;
  pause(): JSZipStream;
  resume(): JSZipStream;
}

/** The bytes as a Buffer without copying them (a vault's images can add up to hundreds of MiB). */
export const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

const mib = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MiB`;

/** Opens the archive and lists its entries, refusing bombs and escaping paths. */
export async function openZip(bytes: Uint8Array, limits = VAULT_LIMITS): Promise<{ entries: ZipEntry[]; budget: InflateBudget }> {
  if (bytes.byteLength > limits.zipBytes) throw new VaultImportError(`the file is larger than ${mib(limits.zipBytes)}`);
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(bytes, { createFolders: false });
  } catch {
    // JSZip's own message is long and points at its documentation: the reason is enough.
    throw new VaultImportError("the file is not a zip archive or it is damaged");
  }
  const objects = Object.values(zip.files);
  if (objects.length > limits.entries) throw new VaultImportError(`the zip has more than ${limits.entries} entries`);
  const entries: ZipEntry[] = [];
  let declared = 0;
  for (const object of objects) {
    const raw = object.unsafeOriginalName ?? object.name;
    const parts = entryPathParts(raw);
    if (!parts) throw new VaultImportError(`the entry "${raw}" points outside the archive`);
    if (parts.length === 0) continue;
    if (parts.length > limits.depth) throw new VaultImportError(`the zip nests folders deeper than ${limits.depth} levels`);
    const declaredBytes = Number((object as unknown as { _data?: { uncompressedSize?: number } })._data?.uncompressedSize ?? 0);
    declared += declaredBytes;
    entries.push({ parts, path: parts.join("/"), dir: object.dir, declaredBytes, object });
  }
  if (declared > limits.uncompressedBytes) {
    throw new VaultImportError(`the zip would inflate to more than ${mib(limits.uncompressedBytes)}`);
  }
  return { entries, budget: new InflateBudget(limits.uncompressedBytes) };
}

/** The bytes all entries may still inflate to, shared by every read of one import. */
export class InflateBudget {
  constructor(private left: number) {}

  /** Bytes that may still be inflated. */
  get remaining() {
    return Math.max(0, this.left);
  }

  take(bytes: number) {
    this.left -= bytes;
    if (this.left < 0) throw new VaultImportError("the zip inflates to more than its limit (a zip bomb?)");
  }
}

interface CompressedData {
  compressedContent?: unknown;
  compression?: { magic?: string };
}

/**
 * Stored and deflated entries are inflated with node:zlib, about ten times faster than JSZip's
 * own inflate, stopping at the declared size (maxOutputLength), so a lying entry never grows past
 * it. Undefined when JSZip's internals are not as expected: the caller streams instead.
 */
function inflateDirectly(entry: ZipEntry, budget: InflateBudget): Uint8Array | undefined {
  const data = (entry.object as unknown as { _data?: CompressedData })._data;
  const content = data?.compressedContent;
  const method = data?.compression?.magic;
  if (!(content instanceof Uint8Array) || (method !== "\x00\x00" && method !== "\x08\x00")) return undefined;
  let bytes: Uint8Array;
  if (method === "\x00\x00") bytes = content;
  else {
    try {
      bytes = inflateRawSync(content, { maxOutputLength: Math.max(1, entry.declaredBytes + 1) });
    } catch (error) {
      if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") {
        throw new VaultImportError(`the entry "${entry.path}" inflates to more than it declares`);
      }
      throw new VaultImportError(`the entry "${entry.path}" is damaged (${(error as Error).message})`);
    }
  }
  if (bytes.byteLength !== entry.declaredBytes) {
    throw new VaultImportError(
      bytes.byteLength > entry.declaredBytes
        ? `the entry "${entry.path}" inflates to more than it declares`
        : `the entry "${entry.path}" is damaged (shorter than it declares)`,
    );
  }
  budget.take(bytes.byteLength);
  return bytes;
}

/**
 * An entry's bytes, inflating at most `maxBytes` (undefined when it is longer: the caller skips
 * it) and within the import's budget. A corrupt entry refuses the whole import.
 */
export function readEntry(entry: ZipEntry, maxBytes: number, budget: InflateBudget): Promise<Uint8Array | undefined> {
  if (entry.declaredBytes > maxBytes) return Promise.resolve(undefined);
  const direct = inflateDirectly(entry, budget);
  if (direct) return Promise.resolve(direct);
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let total = 0;
    let done = false;
    // internalStream is JSZip's documented streaming read (missing from its type definitions): it lets us stop inflating.
    const stream = (entry.object as unknown as { internalStream(type: "uint8array"): JSZipStream }).internalStream("uint8array");
    const finish = (error?: Error, value?: Uint8Array) => {
      if (done) return;
      done = true;
      stream.pause();
      if (error) reject(error);
      else resolve(value);
    };
    stream
      .on("data", (chunk: Uint8Array) => {
        if (done) return;
        total += chunk.byteLength;
        try {
          budget.take(chunk.byteLength);
        } catch (error) {
          finish(error as Error);
          return;
        }
        // More than declared: the entry lies about its size (a bomb); stop inflating.
        if (total > maxBytes || total > entry.declaredBytes) {
          finish(new VaultImportError(`the entry "${entry.path}" inflates to more than it declares`));
          return;
        }
        chunks.push(chunk);
      })
      .on("error", (error: Error) => finish(new VaultImportError(`the entry "${entry.path}" is damaged (${error.message})`)))
      .on("end", () => {
        const out = new Uint8Array(total);
        let offset = 0;
        for (const chunk of chunks) {
          out.set(chunk, offset);
          offset += chunk.byteLength;
        }
        finish(undefined, out);
      })
      .resume();
  });
}
