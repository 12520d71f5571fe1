/**
 * Reads an uploaded zip within limits, entry by entry from its file: only the central directory
 * (names and sizes) is held in memory, and an entry's bytes are read and inflated when asked for,
 * so a 100 MiB archive never sits in memory whole. A damaged archive, too many entries, too many
 * bytes once inflated (declared or actual: a zip bomb stops being inflated at the limit) or a
 * path leaving the archive is refused before anything is written.
 */

import { inflateRawSync } from "node:zlib";
import yauzl from "yauzl";
import { entryPathParts } from "./names";

export const VAULT_LIMITS = {
  /** Largest zip accepted, in bytes (the route's body limit adds room for the multipart framing). */
  zipBytes: 100 * 1024 * 1024,
  /** Most entries (files and folders) in the zip (an Anki deck of 100,000 notes may hold as many media files). */
  entries: 200_000,
  /** Most bytes of all entries read, once inflated. */
  uncompressedBytes: 512 * 1024 * 1024,
  /** Largest Markdown file, in bytes. */
  markdownBytes: 2 * 1024 * 1024,
  /** Most notes one import creates or updates. */
  notes: 100_000,
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
  /** The central directory's record of the entry (where its bytes are in the file). */
  record: yauzl.Entry;
}

/** An open archive: its entries, and the reads of their bytes (close it when done). */
export interface ZipArchive {
  entries: ZipEntry[];
  budget: InflateBudget;
  /**
   * An entry's bytes, inflating at most `maxBytes` (undefined when it is longer: the caller
   * skips it) and within the import's budget. A corrupt entry refuses the whole import.
   */
  read(entry: ZipEntry, maxBytes: number): Promise<Uint8Array | undefined>;
  close(): void;
}

/** The bytes as a Buffer without copying them (a vault's images can add up to hundreds of MiB). */
export const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

const mib = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MiB`;

const utf8 = new TextDecoder("utf-8");
const DAMAGED = "the file is not a zip archive or it is damaged";

function openFile(path: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    // Names are decoded and checked here (entryPathParts), not by yauzl; sizes are checked as entries inflate.
    yauzl.open(path, { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: false }, (error, zip) => {
      if (error || !zip) reject(new VaultImportError(DAMAGED));
      else resolve(zip);
    });
  });
}

/** Every central directory record, refusing more than `max`. */
function listRecords(zip: yauzl.ZipFile, max: number): Promise<yauzl.Entry[]> {
  if (zip.entryCount > max) return Promise.reject(new VaultImportError(`the zip has more than ${max} entries`));
  return new Promise((resolve, reject) => {
    const records: yauzl.Entry[] = [];
    zip.on("entry", (record: yauzl.Entry) => {
      records.push(record);
      zip.readEntry();
    });
    zip.on("end", () => resolve(records));
    zip.on("error", () => reject(new VaultImportError(DAMAGED)));
    zip.readEntry();
  });
}

/** Opens the archive in the file at `path` and lists its entries, refusing bombs and escaping paths. */
export async function openZip(path: string, size: number, limits = VAULT_LIMITS): Promise<ZipArchive> {
  if (size > limits.zipBytes) throw new VaultImportError(`the file is larger than ${mib(limits.zipBytes)}`);
  const zip = await openFile(path);
  try {
    const records = await listRecords(zip, limits.entries);
    const entries: ZipEntry[] = [];
    let declared = 0;
    for (const record of records) {
      // As JSZip read them: UTF-8 (what every current zip tool writes), flagged or not.
      const raw = utf8.decode(record.fileName as unknown as Uint8Array);
      const parts = entryPathParts(raw);
      if (!parts) throw new VaultImportError(`the entry "${raw}" points outside the archive`);
      if (parts.length === 0) continue;
      if (parts.length > limits.depth) throw new VaultImportError(`the zip nests folders deeper than ${limits.depth} levels`);
      declared += record.uncompressedSize;
      entries.push({ parts, path: parts.join("/"), dir: /\/$/.test(raw), declaredBytes: record.uncompressedSize, record });
    }
    if (declared > limits.uncompressedBytes) {
      throw new VaultImportError(`the zip would inflate to more than ${mib(limits.uncompressedBytes)}`);
    }
    const budget = new InflateBudget(limits.uncompressedBytes);
    return { entries, budget, read: (entry, maxBytes) => readEntry(zip, entry, maxBytes, budget), close: () => zip.close() };
  } catch (error) {
    zip.close();
    throw error;
  }
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

/** The entry's stored (compressed) bytes, as they are in the file. */
function rawBytes(zip: yauzl.ZipFile, entry: ZipEntry): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const damaged = (reason: string) => new VaultImportError(`the entry "${entry.path}" is damaged (${reason})`);
    // Stored entries are read as they are; deflated ones without yauzl's inflating (done below, bounded).
    zip.openReadStream(entry.record, entry.record.compressionMethod === 0 ? {} : { decompress: false }, (error, stream) => {
      if (error || !stream) return reject(damaged(error?.message ?? "unreadable"));
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("error", (streamError: Error) => reject(damaged(streamError.message)));
      stream.on("end", () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    });
  });
}

/**
 * Stored and deflated entries are inflated with node:zlib, stopping at the declared size
 * (maxOutputLength), so a lying entry never grows past it; other methods are refused.
 */
async function readEntry(zip: yauzl.ZipFile, entry: ZipEntry, maxBytes: number, budget: InflateBudget): Promise<Uint8Array | undefined> {
  if (entry.declaredBytes > maxBytes) return undefined;
  const method = entry.record.compressionMethod;
  if (method !== 0 && method !== 8) throw new VaultImportError(`the entry "${entry.path}" uses a compression this import cannot read`);
  if (entry.record.isEncrypted()) throw new VaultImportError(`the entry "${entry.path}" is encrypted`);
  const stored = await rawBytes(zip, entry);
  let bytes: Uint8Array = stored;
  if (method === 8) {
    try {
      bytes = inflateRawSync(stored, { maxOutputLength: Math.max(1, entry.declaredBytes + 1) });
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
