/**
 * Reads an Anki collection (a SQLite file from an upload) as an untrusted program: before any
 * row is read, the schema is checked against the layout Anki writes, so that nothing in the file
 * runs or grows when we read it. Refused: any trigger; a view or virtual table where Anki has a
 * table; a generated column or a default that is not a plain literal in the columns we read
 * (`GENERATED ALWAYS AS (zeroblob(1e9))` makes a 700-byte file allocate a gigabyte per row).
 * Every text value is measured with octet_length() (which reads no content) before it is
 * fetched, within per-value and total caps. The file is opened read-only, without memory
 * mapping, and all of this runs in a worker process with its own time and memory limits.
 */
import { Database } from "bun:sqlite";
import { readFileSync, writeFileSync } from "node:fs";
import type { AnkiTiming } from "./anki-timing";
import { VaultImportError } from "./read-zip";

export const ANKI_READ_LIMITS = {
  /** Most bytes of one note's fields (a note over it is skipped and reported). */
  noteBytes: 1024 * 1024,
  /** Most bytes of all notes' fields together. */
  totalNoteBytes: 256 * 1024 * 1024,
  /** Most bytes of one JSON document of the legacy `col` row (note types, decks, configuration). */
  jsonBytes: 64 * 1024 * 1024,
  /** Most bytes of a name, a tag list or a small configuration value. */
  smallBytes: 64 * 1024,
  notes: 100_000,
  cards: 500_000,
  /** Most review log entries read (the newest). */
  reviews: 1_000_000,
  decks: 10_000,
  noteTypes: 1_000,
} as const;

/** The tables and columns read, as Anki's own schema (11 to 18) has them. */
const READ_COLUMNS = {
  col: ["crt", "conf", "models", "decks"],
  notes: ["id", "mid", "tags", "flds"],
  cards: ["id", "nid", "did", "odid", "ord", "type", "queue", "due", "odue", "ivl", "reps", "data"],
  revlog: ["id", "cid", "ease", "ivl", "lastIvl", "time", "type"],
  config: ["key", "val"],
  decks: ["id", "name"],
  notetypes: ["id", "name", "config"],
  fields: ["ntid", "ord", "name"],
} as const;
type ReadTable = keyof typeof READ_COLUMNS;

interface SchemaEntry {
  type: string;
  name: string;
  sql: string | null;
}

/** A column default SQLite stores as a plain literal: a number, a quoted string, NULL, TRUE or FALSE. */
const LITERAL_DEFAULT = /^(?:NULL|TRUE|FALSE|[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?|'(?:[^']|'')*'|"(?:[^"]|"")*")$/i;

export interface CollectionNote {
  id: number;
  mid: number;
  tags: string;
  /** The fields joined with \x1f; undefined when they are over ANKI_READ_LIMITS.noteBytes. */
  flds: string | undefined;
  bytes: number;
}

export interface CollectionCard {
  id: number;
  nid: number;
  did: number;
  odid: number;
  ord: number;
  type: number;
  queue: number;
  due: number;
  odue: number;
  ivl: number;
  reps: number;
  /** FSRS's memory state, when Anki scheduled the card with FSRS (from the card's data). */
  stability?: number;
  difficulty?: number;
}

/** One revlog entry: a review of a card. */
export interface CollectionReview {
  /** When, in ms since the epoch (the entry's id). */
  at: number;
  cid: number;
  /** 1 Again, 2 Hard, 3 Good, 4 Easy; 0 for a manual reschedule. */
  ease: number;
  /** The interval after it: days, or (negative) seconds while learning. */
  ivl: number;
  lastIvl: number;
  /** Milliseconds the learner took. */
  time: number;
  /** 0 learn, 1 review, 2 relearn, 3 filtered, 4 manual, 5 rescheduled. */
  type: number;
}

export interface Collection {
  created: Date;
  decks: Map<number, string[]>;
  models: Map<number, { name: string; fields: string[]; cloze: boolean }>;
  notes: CollectionNote[];
  cards: CollectionCard[];
  /** The review log, oldest first (at most ANKI_READ_LIMITS.reviews, the newest). */
  reviews: CollectionReview[];
  /** More entries than were read. */
  reviewsCut: boolean;
  timing: AnkiTiming;
}

/** Opens the file read-only; the checks below decide whether anything is read from it. */
function openReadOnly(path: string): Database {
  let db: Database;
  try {
    db = new Database(path, { readonly: true });
  } catch (error) {
    throw new VaultImportError(`the collection cannot be opened (${(error as Error).message})`);
  }
  // No functions from the file's schema, corrupt pages caught early, nothing mapped into memory.
  db.run("PRAGMA trusted_schema = OFF");
  db.run("PRAGMA cell_size_check = ON");
  db.run("PRAGMA mmap_size = 0");
  db.run("PRAGMA query_only = ON");
  return db;
}

const UNICASE = /(collate\s+)unicase\b/gi;

/**
 * Current Anki declares names `COLLATE unicase`, a collation it registers itself. SQLite cannot
 * even scan a WITHOUT ROWID table (schema 18's `fields`) whose columns name an unknown collation
 * ("no query solution"). Our copy of the file gets `nocase ` instead (same length, so no byte
 * moves: only the schema's text changes); we never compare or sort by those names.
 */
function withoutAnkiCollations(path: string, db: Database): Database {
  const statements = db
    .query<{ sql: string }, []>("SELECT sql FROM sqlite_schema WHERE sql LIKE '%unicase%'")
    .all()
    .filter((row) => /collate\s+unicase\b/i.test(row.sql));
  if (statements.length === 0) return db;
  const encoding = db.query<{ encoding: string }, []>("PRAGMA encoding").get()?.encoding;
  if (encoding !== "UTF-8") throw new VaultImportError("the collection is not encoded in UTF-8, as Anki writes it");
  db.close();
  const file = readFileSync(path);
  for (const { sql } of statements) {
    const from = Buffer.from(sql, "utf8");
    const to = Buffer.from(
      sql.replace(UNICASE, (_match, collate: string) => `${collate}nocase `),
      "utf8",
    );
    let at = file.indexOf(from);
    if (at < 0) throw new VaultImportError("the collection's schema cannot be read without Anki's own collation");
    for (; at >= 0; at = file.indexOf(from, at + from.length)) to.copy(file, at);
  }
  writeFileSync(path, file);
  return openReadOnly(path);
}

/**
 * Checks the schema: no triggers at all, and every table we read is a real table whose columns
 * we read are stored (not generated) with at most a literal default. Answers the tables present.
 */
export function checkCollectionSchema(db: Database): Set<string> {
  const schema = db.query<SchemaEntry, []>("SELECT type, name, sql FROM sqlite_schema").all();
  const trigger = schema.find((entry) => entry.type === "trigger");
  if (trigger) throw new VaultImportError(`the collection has a trigger ("${trigger.name}"), which Anki never writes`);
  const present = new Set<string>();
  for (const [table, columns] of Object.entries(READ_COLUMNS) as [ReadTable, readonly string[]][]) {
    const entry = schema.find((candidate) => candidate.name.toLowerCase() === table && candidate.type !== "index");
    if (!entry) continue;
    if (entry.type !== "table") throw new VaultImportError(`the collection's "${table}" is a ${entry.type}, not a table`);
    if (/^\s*create\s+virtual\b/i.test(entry.sql ?? ""))
      throw new VaultImportError(`the collection's "${table}" is a virtual table, not a table`);
    const info = db.query<{ name: string; hidden: number; dflt_value: string | null }, []>(`PRAGMA table_xinfo("${table}")`).all();
    for (const column of columns) {
      const found = info.find((candidate) => candidate.name.toLowerCase() === column.toLowerCase());
      if (!found) throw new VaultImportError(`the collection's "${table}" table has no "${column}" column`);
      if (found.hidden !== 0)
        throw new VaultImportError(`the collection's ${table}.${column} is a generated column, which Anki never writes`);
      if (found.dflt_value !== null && (found.dflt_value.length > 1000 || !LITERAL_DEFAULT.test(found.dflt_value.trim())))
        throw new VaultImportError(`the collection's ${table}.${column} has a computed default, which Anki never writes`);
    }
    present.add(table);
  }
  return present;
}

/** Whether a schema 18 note type's config (protobuf Notetype.Config) starts with kind (field 1) = 1, cloze. */
function isClozeConfig(head: Uint8Array | null): boolean {
  if (!(head instanceof Uint8Array) || head.length < 2) return false;
  return head[0] === 0x08 && head[1] === 0x01;
}

/** The scheduling settings of a schema 14+ collection: its config table's JSON values. */
function configTable(db: Database): Record<string, unknown> {
  const settings: Record<string, unknown> = {};
  for (const row of db
    .query<{ key: string | null; val: Uint8Array | string | null }, []>(
      `SELECT ${capped("KEY", 200)} AS key, ${capped("val", 64 * 1024)} AS val FROM config NOT INDEXED LIMIT 10000`,
    )
    .all()) {
    if (row.key === null || row.val === null) continue;
    try {
      settings[String(row.key)] = JSON.parse(typeof row.val === "string" ? row.val : new TextDecoder().decode(row.val));
    } catch {
      // A value that is not JSON is none of the settings read.
    }
  }
  return settings;
}

const optionalNumber = <K extends string>(key: K, value: unknown): Partial<Record<K, number>> =>
  typeof value === "number" && Number.isFinite(value) ? ({ [key]: value } as Record<K, number>) : {};

/** FSRS's memory state in a card's data ({"s": stability in days, "d": difficulty 1-10}), when there. */
function memoryState(data: string | null): { stability?: number; difficulty?: number } {
  if (!data?.includes('"s"')) return {};
  try {
    const parsed = JSON.parse(data) as { s?: unknown; d?: unknown };
    return typeof parsed.s === "number" && typeof parsed.d === "number" && parsed.s > 0 && parsed.d >= 1 && parsed.d <= 10
      ? { stability: parsed.s, difficulty: parsed.d }
      : {};
  } catch {
    return {};
  }
}

/** A text column fetched only when it is at most `max` bytes (null otherwise); octet_length() reads no content. */
const capped = (column: string, max: number) => `CASE WHEN octet_length(${column}) <= ${max} THEN ${column} END`;

const count = (db: Database, table: string) =>
  Number(db.query<{ n: number }, []>(`SELECT count(*) AS n FROM "${table}" NOT INDEXED`).get()?.n ?? 0);

function parseJson<T>(text: string | null, what: string): T {
  if (text === null) throw new VaultImportError(`the collection's ${what} are larger than the import allows`);
  try {
    return JSON.parse(text || "{}") as T;
  } catch {
    throw new VaultImportError(`the collection's ${what} are damaged`);
  }
}

/** Reads what the import needs from a collection file (see the module comment for the checks). */
export function readCollectionFile(path: string): Collection {
  let db = openReadOnly(path);
  try {
    db = withoutAnkiCollations(path, db);
    const tables = checkCollectionSchema(db);
    if (!tables.has("col") || !tables.has("notes") || !tables.has("cards"))
      throw new VaultImportError("the collection has no notes or cards table");
    const { jsonBytes, smallBytes } = ANKI_READ_LIMITS;
    const col = db
      .query<{ crt: number; conf: string | null; decks: string | null; models: string | null }, []>(
        `SELECT crt, ${capped("conf", jsonBytes)} AS conf, ${capped("decks", jsonBytes)} AS decks, ${capped("models", jsonBytes)} AS models FROM col NOT INDEXED LIMIT 1`,
      )
      .get();
    if (!col) throw new VaultImportError("the collection is empty");
    const decks = new Map<number, string[]>();
    const models: Collection["models"] = new Map();
    if (tables.has("decks") && tables.has("notetypes") && tables.has("fields")) {
      // Schema 18 (current Anki): decks and note types in their own tables; deck names use \x1f between levels.
      if (count(db, "decks") > ANKI_READ_LIMITS.decks)
        throw new VaultImportError(`the collection has more than ${ANKI_READ_LIMITS.decks} decks`);
      if (count(db, "notetypes") > ANKI_READ_LIMITS.noteTypes)
        throw new VaultImportError(`the collection has more than ${ANKI_READ_LIMITS.noteTypes} note types`);
      for (const deck of db
        .query<{ id: number; name: string | null }, []>(`SELECT id, ${capped("name", smallBytes)} AS name FROM decks NOT INDEXED`)
        .all())
        decks.set(Number(deck.id), String(deck.name ?? "Deck").split("\x1f"));
      // Of each note type's config (a protobuf with its CSS: it can be large) only the start: field 1 is its kind.
      for (const type of db
        .query<{ id: number; name: string | null; head: Uint8Array | null }, []>(
          `SELECT id, ${capped("name", smallBytes)} AS name, substr(config, 1, 16) AS head FROM notetypes NOT INDEXED`,
        )
        .all())
        models.set(Number(type.id), { name: String(type.name ?? "Note"), fields: [], cloze: isClozeConfig(type.head) });
      const fieldRows = db
        .query<{ ntid: number; ord: number; name: string | null }, []>(
          `SELECT ntid, ord, ${capped("name", smallBytes)} AS name FROM fields NOT INDEXED LIMIT ${ANKI_READ_LIMITS.noteTypes * 100}`,
        )
        .all()
        .sort((a, b) => Number(a.ntid) - Number(b.ntid) || Number(a.ord) - Number(b.ord));
      for (const field of fieldRows) models.get(Number(field.ntid))?.fields.push(String(field.name ?? ""));
    } else {
      for (const [id, deck] of Object.entries(parseJson<Record<string, { name?: string }>>(col.decks, "decks")))
        decks.set(Number(id), String(deck?.name ?? "Default").split("::"));
      const modelsJson = parseJson<Record<string, { name?: string; type?: number; flds?: { name?: string; ord?: number }[] }>>(
        col.models,
        "note types",
      );
      for (const [id, model] of Object.entries(modelsJson)) {
        const fields = [...(Array.isArray(model?.flds) ? model.flds : [])]
          .sort((a, b) => (a?.ord ?? 0) - (b?.ord ?? 0))
          .map((field) => String(field?.name ?? ""));
        // Legacy note types say `type: 1` for cloze.
        models.set(Number(id), { name: String(model?.name ?? "Note"), fields, cloze: Number(model?.type) === 1 });
      }
    }

    if (count(db, "notes") > ANKI_READ_LIMITS.notes) throw new VaultImportError(`the deck has more than ${ANKI_READ_LIMITS.notes} notes`);
    const { noteBytes, totalNoteBytes } = ANKI_READ_LIMITS;
    const total = Number(
      db.query<{ n: number | null }, []>(`SELECT sum(min(octet_length(flds), ${noteBytes + 1})) AS n FROM notes NOT INDEXED`).get()?.n ?? 0,
    );
    if (total > totalNoteBytes)
      throw new VaultImportError(`the notes hold more than ${totalNoteBytes / 1024 / 1024} MiB of text, more than the import allows`);
    const notes = db
      .query<{ id: number; mid: number; tags: string | null; flds: string | null; bytes: number }, []>(
        `SELECT id, mid, ${capped("tags", smallBytes)} AS tags, ${capped("flds", noteBytes)} AS flds, octet_length(flds) AS bytes FROM notes NOT INDEXED`,
      )
      .all()
      .map((row) => ({
        id: Number(row.id),
        mid: Number(row.mid),
        tags: String(row.tags ?? ""),
        flds: row.flds === null ? undefined : String(row.flds),
        bytes: Number(row.bytes),
      }))
      .sort((a, b) => a.id - b.id);

    if (count(db, "cards") > ANKI_READ_LIMITS.cards) throw new VaultImportError(`the deck has more than ${ANKI_READ_LIMITS.cards} cards`);
    const cards = db
      .query<Omit<CollectionCard, "stability" | "difficulty"> & { data: string | null }, []>(
        `SELECT id, nid, did, odid, ord, type, queue, due, odue, ivl, reps, ${capped("data", smallBytes)} AS data FROM cards NOT INDEXED`,
      )
      .all()
      .map((card) => ({
        ...memoryState(card.data),
        id: Number(card.id),
        nid: Number(card.nid),
        did: Number(card.did),
        odid: Number(card.odid),
        ord: Number(card.ord),
        type: Number(card.type),
        queue: Number(card.queue),
        due: Number(card.due),
        odue: Number(card.odue),
        ivl: Number(card.ivl),
        reps: Number(card.reps),
      }))
      .sort((a, b) => a.nid - b.nid || a.ord - b.ord);

    let reviews: CollectionReview[] = [];
    let reviewsCut = false;
    if (tables.has("revlog")) {
      reviewsCut = count(db, "revlog") > ANKI_READ_LIMITS.reviews;
      reviews = db
        .query<CollectionReview, []>(
          `SELECT id AS at, cid, ease, ivl, lastIvl, time, type FROM revlog NOT INDEXED ORDER BY id DESC LIMIT ${ANKI_READ_LIMITS.reviews}`,
        )
        .all()
        .map((row) => ({
          at: Number(row.at),
          cid: Number(row.cid),
          ease: Number(row.ease),
          ivl: Number(row.ivl),
          lastIvl: Number(row.lastIvl),
          time: Number(row.time),
          type: Number(row.type),
        }))
        .reverse();
    }
    const settings = tables.has("config") ? configTable(db) : parseJson<Record<string, unknown>>(col.conf, "settings");
    const timing: AnkiTiming = {
      crt: Number(col.crt),
      ...optionalNumber("rollover", settings.rollover),
      ...optionalNumber("creationOffset", settings.creationOffset),
      ...optionalNumber("localOffset", settings.localOffset),
    };
    return { created: new Date(Number(col.crt) * 1000), decks, models, notes, cards, reviews, reviewsCut, timing };
  } catch (error) {
    if (error instanceof VaultImportError) throw error;
    throw new VaultImportError(`the collection cannot be read (${(error as Error).message})`);
  } finally {
    db.close();
  }
}
