/**
 * Reads an Anki deck package (.apkg) without touching Engram's database: the collection (the
 * current zstd-compressed `collection.anki21b`, else `collection.anki21`, else the legacy
 * `collection.anki2`) is written to a temporary file and read with bun:sqlite; the media list
 * (JSON, or zstd-compressed protobuf in current packages) names the numbered media files.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { zstdDecompressSync } from "node:zlib";
import { detectImageType, MAX_IMAGE_BYTES } from "../accessories/image-bytes";
import { MAX_DETAILS_LENGTH } from "../notes/validation";
import { stripControlCharacters } from "../text-input";
import { ANKI_READ_LIMITS, type Collection, type CollectionCard, type CollectionReview, readCollectionFile } from "./anki-collection";
import { imageSources, soundNames } from "./anki-html";
import { ankiNoteText, shortenedTitle } from "./anki-note";
import { ankiDayOf, ankiDayStart, cardDueDate } from "./anki-timing";
import { type SkippedFile, StoredImages, type StoreImage, type VaultImage } from "./read-vault";
import { type InflateBudget, openZip, VAULT_LIMITS, VaultImportError, type ZipArchive, type ZipEntry } from "./read-zip";

export interface AnkiCard {
  /** Anki's card type: 0 new, 1 learning, 2 review, 3 relearning. */
  type: number;
  /** -1 suspended, -2/-3 buried, 0 new, 1/3 learning, 2 review. */
  queue: number;
  /** When it is next due. */
  due: Date | undefined;
  intervalDays: number;
  reps: number;
  /** FSRS's memory state, when Anki scheduled the card with FSRS. */
  stability?: number;
  difficulty?: number;
  /** The card's answers in the revlog (not manual reschedules), oldest first. */
  reviews: AnkiReview[];
  /** When the collection's next day starts after the import (a buried card is not due before). */
  nextDay: Date;
}

export interface AnkiReview {
  at: Date;
  /** Again (1) is a failure; Hard, Good and Easy (2-4) succeed. */
  ease: number;
  /** The interval planned before this review and the one chosen by it, in days. */
  lastIntervalDays: number;
  intervalDays: number;
  /** Milliseconds the learner took. */
  timeMs: number;
}

export interface AnkiNote {
  title: string;
  details: string;
  /** A cloze note's answer (also in its `cloze_answer` property): recall asks for it by spelling. */
  clozeAnswer?: string;
  image?: VaultImage;
  /** The note's first card (lowest template ordinal): its review state. */
  card?: AnkiCard;
}

export interface AnkiDeck {
  title: string;
  notes: AnkiNote[];
  children: AnkiDeck[];
}

export interface AnkiPackage {
  root: AnkiDeck;
  noteCount: number;
  skipped: SkippedFile[];
}

const ZSTD_MAGIC = [0x28, 0xb5, 0x2f, 0xfd];
const isZstd = (bytes: Uint8Array) => ZSTD_MAGIC.every((byte, i) => bytes[i] === byte);
/** Engram notes hold no audio: a note's sounds are left out of its text and listed in the report. */
export const SOUND_NOT_IMPORTED = "a sound, not imported: Engram notes hold no audio (the note keeps its text)";

/** An interval in days: the revlog writes a learning step's as negative seconds. */
const intervalDays = (ivl: number) => (ivl < 0 ? -ivl / 86_400 : ivl);

/** zstd-decompressed bytes (the runtime's built-in zstd), stopping at what is left of the import's budget. */
function unzstd(bytes: Uint8Array, what: string, budget: InflateBudget): Uint8Array {
  let out: Uint8Array;
  try {
    out = zstdDecompressSync(bytes, { maxOutputLength: Math.max(1, budget.remaining) });
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") {
      throw new VaultImportError(`${what} inflates to more than the limit (a zip bomb?)`);
    }
    throw new VaultImportError(`${what} is damaged (${(error as Error).message})`);
  }
  budget.take(out.byteLength);
  return out;
}

/** The protobuf MediaEntries of current packages: name (1) of each entry, and its zip file name (255) if given. */
function readMediaEntries(bytes: Uint8Array): Map<string, string> {
  const names = new Map<string, string>();
  let pos = 0;
  const varint = (): number => {
    let result = 0;
    let shift = 0;
    for (;;) {
      if (pos >= bytes.length) throw new VaultImportError("the media list is damaged");
      const byte = bytes[pos++]!;
      result += (byte & 0x7f) * 2 ** shift;
      if (!(byte & 0x80)) return result;
      shift += 7;
      if (shift > 56) throw new VaultImportError("the media list is damaged");
    }
  };
  const skip = (wire: number) => {
    if (wire === 0) varint();
    else if (wire === 1) pos += 8;
    else if (wire === 2) pos += varint();
    else if (wire === 5) pos += 4;
    else throw new VaultImportError("the media list is damaged");
  };
  let index = 0;
  while (pos < bytes.length) {
    const key = varint();
    if (key >> 3 !== 1 || (key & 7) !== 2) {
      skip(key & 7);
      continue;
    }
    const end = pos + varint();
    let name = "";
    let zipName = String(index);
    while (pos < end) {
      const field = varint();
      if (field >> 3 === 1 && (field & 7) === 2) {
        const length = varint();
        name = new TextDecoder().decode(bytes.subarray(pos, pos + length));
        pos += length;
      } else if (field >> 3 === 255 && (field & 7) === 0) zipName = String(varint());
      else skip(field & 7);
    }
    pos = end;
    names.set(name, zipName);
    index++;
  }
  return names;
}

function cleanTitle(text: string): string {
  return shortenedTitle(stripControlCharacters(text).replace(/\s+/g, " ").trim()) || "Untitled";
}

/** Reads the .apkg in the file at `path` (see readAnkiPackage); images go to `storeImage` as they are read. */
export async function readAnkiPackageFile(path: string, name: string, now: Date, storeImage: StoreImage): Promise<AnkiPackage> {
  const archive = await openZip(path, statSync(path).size);
  try {
    return await readAnkiPackage(archive, name, now, storeImage);
  } finally {
    archive.close();
  }
}

/**
 * Reads an .apkg into a deck tree of notes (titled `packageName` when it has more than one top
 * deck); `now` is the server's clock, for the day a buried card waits for. Each image is handed
 * to `storeImage` once, as soon as it is read, so no image stays in memory.
 */
export async function readAnkiPackage(archive: ZipArchive, packageName: string, now: Date, storeImage: StoreImage): Promise<AnkiPackage> {
  const { entries, budget } = archive;
  const readEntry = (entry: ZipEntry, maxBytes: number, _budget: InflateBudget) => archive.read(entry, maxBytes);
  const byName = new Map(entries.filter((entry) => !entry.dir).map((entry) => [entry.path, entry]));
  const collectionEntry = byName.get("collection.anki21b") ?? byName.get("collection.anki21") ?? byName.get("collection.anki2");
  if (!collectionEntry) throw new VaultImportError("the file is not an Anki deck package (no collection inside)");
  const raw = await readEntry(collectionEntry, VAULT_LIMITS.uncompressedBytes, budget);
  if (!raw) throw new VaultImportError("the collection is too large");
  const collectionBytes = collectionEntry.path.endsWith("anki21b") || isZstd(raw) ? unzstd(raw, "the collection", budget) : raw;

  const dir = mkdtempSync(join(tmpdir(), "engram-anki-"));
  let collection: Collection;
  try {
    const path = join(dir, "collection.sqlite");
    writeFileSync(path, collectionBytes);
    collection = readCollectionFile(path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  // The media list: file name → numbered zip entry.
  const media = new Map<string, string>();
  const mediaEntry = byName.get("media");
  if (mediaEntry) {
    const listBytes = await readEntry(mediaEntry, 64 * 1024 * 1024, budget);
    if (listBytes?.length) {
      if (isZstd(listBytes))
        for (const [name, zipName] of readMediaEntries(unzstd(listBytes, "the media list", budget))) media.set(name, zipName);
      else {
        try {
          for (const [zipName, name] of Object.entries(JSON.parse(new TextDecoder().decode(listBytes)) as Record<string, string>))
            media.set(String(name), zipName);
        } catch {
          throw new VaultImportError("the media list is damaged");
        }
      }
    }
  }

  const skipped: SkippedFile[] = [];
  const images = new Map<string, VaultImage | string>();
  const stored = new StoredImages(storeImage);
  const imageOf = async (name: string): Promise<VaultImage | string> => {
    const known = images.get(name);
    if (known) return known;
    const zipName = media.get(name);
    const entry: ZipEntry | undefined = zipName === undefined ? undefined : byName.get(zipName);
    let result: VaultImage | string;
    if (!entry) result = "the note names a media file the package does not hold";
    else {
      let data = await readEntry(entry, MAX_IMAGE_BYTES * 4, budget);
      if (data && isZstd(data)) data = unzstd(data, `the media file ${name}`, budget);
      const contentType = data && data.byteLength <= MAX_IMAGE_BYTES ? detectImageType(data) : undefined;
      result =
        !data || data.byteLength > MAX_IMAGE_BYTES
          ? `larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MiB`
          : contentType
            ? await stored.store(name, data, contentType)
            : "not a PNG, JPEG, GIF or WebP image (other media are not imported)";
    }
    images.set(name, result);
    return result;
  };

  // The deck tree; each note goes to the deck of its first card.
  const deckNodes = new Map<string, AnkiDeck>();
  const root: AnkiDeck = { title: packageName, notes: [], children: [] };
  const deckFor = (path: string[]): AnkiDeck => {
    let node = root;
    for (let i = 0; i < path.length; i++) {
      const key = path.slice(0, i + 1).join("\x1f");
      let next = deckNodes.get(key);
      if (!next) {
        next = { title: cleanTitle(path[i]!), notes: [], children: [] };
        deckNodes.set(key, next);
        node.children.push(next);
      }
      node = next;
    }
    return node;
  };
  // Answers only: manual reschedules (ease 0, types 4 and 5) are not reviews.
  const reviewsOf = new Map<number, CollectionReview[]>();
  for (const review of collection.reviews) {
    if (review.ease < 1 || review.ease > 4 || review.type > 3) continue;
    const list = reviewsOf.get(review.cid);
    if (list) list.push(review);
    else reviewsOf.set(review.cid, [review]);
  }
  if (collection.reviewsCut)
    skipped.push({ path: "review history", reason: `more than ${ANKI_READ_LIMITS.reviews} reviews: only the newest were imported` });
  const nextDay = ankiDayStart(collection.timing, ankiDayOf(collection.timing, now) + 1);
  const firstCard = new Map<number, CollectionCard>();
  /** Each sound file the notes play ([sound:…]), with how many notes do: reported once each. */
  const sounds = new Map<string, number>();
  for (const card of collection.cards) if (!firstCard.has(Number(card.nid))) firstCard.set(Number(card.nid), card);

  for (const note of collection.notes) {
    if (note.flds === undefined) {
      skipped.push({
        path: `note ${note.id}`,
        reason: `its fields hold ${Math.round(note.bytes / 1024)} KiB, more than the ${ANKI_READ_LIMITS.noteBytes / 1024} KiB a note may have; it was not imported`,
      });
      continue;
    }
    const model = collection.models.get(Number(note.mid));
    const values = note.flds.split("\x1f");
    const card = firstCard.get(Number(note.id));
    // A card in a filtered deck belongs to its original deck (odid).
    const deckId = card ? Number(card.odid) || Number(card.did) : 0;
    const deck = deckFor(collection.decks.get(deckId) ?? ["Default"]);
    const tags = note.tags.trim().split(/\s+/).filter(Boolean);
    const text = ankiNoteText(model, values, tags, card?.ord ?? 0);
    const title = text.title;
    let details = text.details;
    if (details.length > MAX_DETAILS_LENGTH) {
      skipped.push({
        path: `note ${note.id} (${title})`,
        reason: `its text is longer than ${MAX_DETAILS_LENGTH} characters; the note was imported without it`,
      });
      details = "";
    }
    const ankiNote: AnkiNote = { title, details, ...(text.clozeAnswer ? { clozeAnswer: text.clozeAnswer } : {}) };
    for (const source of values.flatMap(imageSources)) {
      const image = await imageOf(source);
      if (typeof image === "string") skipped.push({ path: source, reason: image });
      else if (!ankiNote.image) ankiNote.image = image;
      else if (image.path !== ankiNote.image.path)
        skipped.push({ path: source, reason: `a note keeps one image: only the first one of "${title}" was imported` });
    }
    for (const sound of values.flatMap(soundNames)) sounds.set(sound, (sounds.get(sound) ?? 0) + 1);
    if (card) {
      const reviews = (reviewsOf.get(card.id) ?? []).map((review) => ({
        at: new Date(review.at),
        ease: review.ease,
        lastIntervalDays: intervalDays(review.lastIvl),
        intervalDays: intervalDays(review.ivl),
        timeMs: Math.max(0, review.time),
      }));
      ankiNote.card = {
        type: Number(card.type),
        queue: Number(card.queue),
        due: cardDueDate(card, collection.timing),
        // biome-ignore lint/complexity/useMathMinMax: a missing or odd ivl (NaN) must become 0, which Math.max would not do.
        intervalDays: Number(card.ivl) > 0 ? Number(card.ivl) : 0,
        reps: Number(card.reps),
        ...(card.stability === undefined ? {} : { stability: card.stability, difficulty: card.difficulty }),
        reviews,
        nextDay,
      };
    }
    deck.notes.push(ankiNote);
  }

  for (const [sound, notes] of sounds)
    skipped.push({ path: sound, reason: `${SOUND_NOT_IMPORTED}${notes > 1 ? ` (played by ${notes} notes)` : ""}` });

  // Decks without notes (Anki's empty "Default") are left out; one top deck is the notebook itself.
  const prune = (deck: AnkiDeck): boolean => {
    deck.children = deck.children.filter(prune);
    return deck.notes.length > 0 || deck.children.length > 0;
  };
  prune(root);
  const top = root.notes.length === 0 && root.children.length === 1 ? root.children[0]! : root;
  await stored.ready();
  return { root: top, noteCount: collection.notes.length, skipped };
}
