/**
 * Anki packages built in tests, with the tables Anki itself creates: schema 11 (what
 * `collection.anki2` and `collection.anki21` hold) and schema 18 (current Anki's zstd-compressed
 * `collection.anki21b`: decks, note types, fields and templates in their own tables, several of
 * them WITHOUT ROWID, names declared `COLLATE unicase`, a collation only Anki registers). The
 * layouts follow Anki's own schema files (rslib/src/storage/schema11.sql and the
 * upgrades/schema{14,15,17,18}_upgrade.sql steps); bun:sqlite cannot create a column with an
 * unknown collation, so the file is written with `COLLATE  nocase` and the schema text is then
 * changed in place (same length).
 *
 * Run directly, it writes a sample legacy .apkg to the path given, or with `rich` a current
 * (anki21b) one that also holds math, a table and a cloze note (the e2e tests use them:
 * Playwright runs on Node, without bun:sqlite).
 */
import { Database } from "bun:sqlite";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makePng, makeZip } from "./vaults";

/** What Anki exports: the legacy v1-scheduler collection, the 2.1 (v2 scheduler) one, or current Anki's. */
export type AnkiLayout = "anki2" | "anki21" | "anki21b";

export interface FixtureReview {
  /** When (ms since the epoch): the revlog id. */
  at: number;
  /** 1 Again, 2 Hard, 3 Good, 4 Easy (0: a manual reschedule). */
  ease: number;
  ivl: number;
  lastIvl?: number;
  /** 0 learn, 1 review, 2 relearn, 3 filtered, 4 manual. */
  type: number;
  /** Milliseconds spent answering. */
  time?: number;
}

export interface FixtureCard {
  id: number;
  ord?: number;
  type: number;
  queue: number;
  due: number;
  ivl?: number;
  reps?: number;
  odid?: number;
  odue?: number;
  /** JSON, e.g. FSRS's memory state {"s": 12.3, "d": 5.1}. */
  data?: string;
  reviews?: FixtureReview[];
}

export interface FixtureNote {
  id: number;
  type: "Basic" | "Vocab" | "Cloze";
  /** Deck path with "::" between levels. */
  deck: string;
  fields: string[];
  tags?: string;
  cards: FixtureCard[];
}

export interface DeckSpec {
  /** Collection creation time (seconds). */
  crt: number;
  /** The day numbers (since the collection's creation day) the review cards are due. */
  reviewDue: number;
  /** Adds a note whose fields hold 2 MiB (over what a note may have). */
  hugeNote?: boolean;
  /** More notes after the sample ones. */
  notes?: FixtureNote[];
  /** The v2 scheduler's day boundary: hour of the rollover, minutes west of UTC at creation and now. */
  rollover?: number;
  creationOffset?: number;
  localOffset?: number;
}

const DAY_MS = 86_400_000;

// Schema 11 (rslib/src/storage/schema11.sql), the layout of every collection before Anki 2.1.28.
const SCHEMA_11 = `
  create table col (id integer primary key, crt integer not null, mod integer not null, scm integer not null, ver integer not null,
    dty integer not null, usn integer not null, ls integer not null, conf text not null, models text not null, decks text not null,
    dconf text not null, tags text not null);
  create table notes (id integer primary key, guid text not null, mid integer not null, mod integer not null, usn integer not null,
    tags text not null, flds text not null, sfld integer not null, csum integer not null, flags integer not null, data text not null);
  create table cards (id integer primary key, nid integer not null, did integer not null, ord integer not null, mod integer not null,
    usn integer not null, type integer not null, queue integer not null, due integer not null, ivl integer not null,
    factor integer not null, reps integer not null, lapses integer not null, left integer not null, odue integer not null,
    odid integer not null, flags integer not null, data text not null);
  create table revlog (id integer primary key, cid integer not null, usn integer not null, ease integer not null, ivl integer not null,
    lastIvl integer not null, factor integer not null, time integer not null, type integer not null);
  create table graves (usn integer not null, oid integer not null, type integer not null);
  create index ix_notes_usn on notes (usn);
  create index ix_cards_usn on cards (usn);
  create index ix_revlog_usn on revlog (usn);
  create index ix_cards_nid on cards (nid);
  create index ix_cards_sched on cards (did, queue, due);
  create index ix_revlog_cid on revlog (cid);
  create index ix_notes_csum on notes (csum);`;

// Schema 11 → 18, step by step as Anki upgrades a collection (upgrades/schema*_upgrade.sql).
const UPGRADE_TO_18 = `
  create table deck_config (id integer primary key not null, name text not null COLLATE unicase, mtime_secs integer not null,
    usn integer not null, config blob not null);
  create table config (KEY text not null primary key, usn integer not null, mtime_secs integer not null, val blob not null) without rowid;
  create table tags (tag text not null primary key COLLATE unicase, usn integer not null) without rowid;
  update col set ver = 14;
  create table fields (ntid integer not null, ord integer not null, name text not null COLLATE unicase, config blob not null,
    primary key (ntid, ord)) without rowid;
  create unique index idx_fields_name_ntid on fields (name, ntid);
  create table templates (ntid integer not null, ord integer not null, name text not null COLLATE unicase, mtime_secs integer not null,
    usn integer not null, config blob not null, primary key (ntid, ord)) without rowid;
  create unique index idx_templates_name_ntid on templates (name, ntid);
  create index idx_templates_usn on templates (usn);
  create table notetypes (id integer not null primary key, name text not null COLLATE unicase, mtime_secs integer not null,
    usn integer not null, config blob not null);
  create unique index idx_notetypes_name on notetypes (name);
  create index idx_notetypes_usn on notetypes (usn);
  create table decks (id integer primary key not null, name text not null COLLATE unicase, mtime_secs integer not null,
    usn integer not null, common blob not null, kind blob not null);
  create unique index idx_decks_name on decks (name);
  create index idx_notes_mid on notes (mid);
  create index idx_cards_odid on cards (odid) where odid != 0;
  update col set ver = 15;
  update col set ver = 17;
  drop table tags;
  create table tags (id integer primary key not null, name text not null COLLATE unicase, usn integer not null, config blob not null);
  alter table graves rename to graves_old;
  create table graves (oid integer not null, type integer not null, usn integer not null, primary key (oid, type)) without rowid;
  drop table graves_old;
  create index idx_graves_pending on graves (usn);
  update col set ver = 18;`;

/** Written with a collation bun:sqlite knows, then given Anki's own in the file (same length). */
const UNICASE = "COLLATE unicase";
const STAND_IN = "COLLATE  nocase";

const DECKS: Record<number, string> = {
  1: "Default",
  100: "Languages",
  101: "Languages::Spanish",
  102: "Languages::French",
  103: "Cram",
  104: "Science",
};
const FILTERED_DECKS = new Set([103]);
const NOTE_TYPES: Record<string, { id: number; fields: string[]; cloze?: boolean; templates: string[] }> = {
  Basic: { id: 200, fields: ["Front", "Back"], templates: ["Card 1"] },
  Vocab: { id: 201, fields: ["Word", "Meaning", "Example"], templates: ["Recognition"] },
  Cloze: { id: 202, fields: ["Text", "Back Extra"], cloze: true, templates: ["Cloze"] },
};
const deckId = (path: string) => Number(Object.entries(DECKS).find(([, name]) => name === path)?.[0] ?? 1);

/** The sample notes: a deck tree over two note types, media, a suspended card and a filtered deck. */
function sampleNotes(spec: DeckSpec): FixtureNote[] {
  const notes: FixtureNote[] = [
    {
      id: 1,
      type: "Basic",
      deck: "Languages::Spanish",
      fields: ["<b>Hola</b>", 'Hello<br>Hi <img src="hola.png">'],
      tags: " spanish greeting ",
      cards: [
        {
          id: 11,
          type: 2,
          queue: 2,
          due: spec.reviewDue,
          ivl: 10,
          reps: 4,
          // Learnt 13 days before it is due (Again once), reviewed 10 days before; a manual reschedule is no review.
          reviews: [
            { at: dayAt(spec, spec.reviewDue - 13), ease: 3, ivl: -600, type: 0 },
            { at: dayAt(spec, spec.reviewDue - 13) + 600_000, ease: 1, ivl: -600, lastIvl: -600, type: 0, time: 12_000 },
            { at: dayAt(spec, spec.reviewDue - 10), ease: 3, ivl: 10, lastIvl: -600, type: 1 },
            { at: dayAt(spec, spec.reviewDue - 9), ease: 0, ivl: 10, lastIvl: 10, type: 4 },
          ],
        },
        // The reversed card's reviews are not the note's first card's: not carried over.
        { id: 12, ord: 1, type: 1, queue: -3, due: 5, reviews: [{ at: dayAt(spec, spec.reviewDue - 12), ease: 3, ivl: 1, type: 0 }] },
      ],
    },
    {
      id: 2,
      type: "Vocab",
      deck: "Languages::French",
      fields: ["le chat", "the cat", "<i>Le chat</i> dort."],
      cards: [{ id: 21, type: 0, queue: 0, due: 1 }],
    },
    {
      id: 3,
      type: "Basic",
      deck: "Languages::Spanish",
      fields: ["Suspended &amp; gone", "x"],
      cards: [{ id: 31, type: 2, queue: -1, due: spec.reviewDue, ivl: 3, reps: 2 }],
    },
    // Its card is in a filtered deck (Cram): it belongs to its original deck.
    { id: 4, type: "Basic", deck: "Cram", fields: ["Sound", "[sound:a.mp3]"], cards: [{ id: 41, type: 0, queue: 0, due: 2, odid: 101 }] },
  ];
  if (spec.hugeNote)
    notes.push({
      id: 5,
      type: "Basic",
      deck: "Languages::Spanish",
      fields: ["Huge", "x".repeat(2 * 1024 * 1024)],
      cards: [{ id: 51, type: 0, queue: 0, due: 3 }],
    });
  return [...notes, ...(spec.notes ?? [])];
}

/** Noon of the collection's day `day` (counting from crt, as the v1 scheduler does), in ms. */
export const dayAt = (spec: DeckSpec, day: number) => (spec.crt + day * 86_400) * 1000 + 12 * 3_600_000;

/** The protobuf of a note type's config (schema 18): field 1 is its kind, 1 for cloze. */
const noteTypeConfig = (cloze: boolean) => new Uint8Array(cloze ? [0x08, 0x01] : []);

/** A collection in one of Anki's layouts, holding the sample notes and `spec.notes`. */
export function buildCollection(spec: DeckSpec, layout: AnkiLayout): Uint8Array<ArrayBuffer> {
  const dir = mkdtempSync(join(tmpdir(), "anki-test-"));
  const path = join(dir, "collection.anki2");
  const db = new Database(path, { create: true });
  db.exec(SCHEMA_11);
  // One transaction: a bench deck has thousands of rows.
  db.exec("BEGIN");
  const schema18 = layout === "anki21b";
  const v2 = layout !== "anki2";
  // The v1 scheduler (anki2) has no rollover: its days start at crt.
  const conf: Record<string, unknown> = v2
    ? {
        schedVer: 2,
        rollover: spec.rollover ?? 4,
        ...(spec.creationOffset === undefined ? {} : { creationOffset: spec.creationOffset }),
        ...(spec.localOffset === undefined ? {} : { localOffset: spec.localOffset }),
      }
    : { schedVer: 1 };
  if (schema18) {
    db.exec(UPGRADE_TO_18.replaceAll(UNICASE, STAND_IN));
    db.run("insert into col values (1, ?, 0, 0, 18, 0, 0, 0, '', '', '', '', '')", [spec.crt]);
    for (const [key, value] of Object.entries(conf))
      db.run("insert into config (KEY, usn, mtime_secs, val) values (?, 0, 0, ?)", [key, new TextEncoder().encode(JSON.stringify(value))]);
    for (const [id, name] of Object.entries(DECKS))
      db.run("insert into decks values (?, ?, 0, 0, ?, ?)", [
        Number(id),
        name.replaceAll("::", "\x1f"),
        new Uint8Array(),
        new Uint8Array(),
      ]);
    for (const [name, type] of Object.entries(NOTE_TYPES)) {
      db.run("insert into notetypes values (?, ?, 0, 0, ?)", [type.id, name, noteTypeConfig(!!type.cloze)]);
      type.fields.forEach((field, ord) => {
        db.run("insert into fields values (?, ?, ?, ?)", [type.id, ord, field, new Uint8Array()]);
      });
      type.templates.forEach((template, ord) => {
        db.run("insert into templates values (?, ?, ?, 0, 0, ?)", [type.id, ord, template, new Uint8Array()]);
      });
    }
  } else {
    const decks = Object.fromEntries(
      Object.entries(DECKS).map(([id, name]) => [id, { id: Number(id), name, dyn: FILTERED_DECKS.has(Number(id)) ? 1 : 0 }]),
    );
    const models = Object.fromEntries(
      Object.entries(NOTE_TYPES).map(([name, type]) => [
        type.id,
        {
          id: type.id,
          name,
          type: type.cloze ? 1 : 0,
          // Anki keeps them in order; the reader must not rely on it.
          flds: type.fields.map((field, ord) => ({ name: field, ord })).reverse(),
          tmpls: type.templates.map((template, ord) => ({ name: template, ord })),
        },
      ]),
    );
    db.run("insert into col values (1, ?, 0, 0, 11, 0, 0, 0, ?, ?, ?, '{}', '{}')", [
      spec.crt,
      JSON.stringify(conf),
      JSON.stringify(models),
      JSON.stringify(decks),
    ]);
  }
  for (const note of sampleNotes(spec)) {
    const type = NOTE_TYPES[note.type]!;
    db.run("insert into notes values (?, ?, ?, 0, 0, ?, ?, ?, 0, 0, '')", [
      note.id,
      `g${note.id}`,
      type.id,
      note.tags ?? "",
      note.fields.join("\x1f"),
      note.fields[0]!,
    ]);
    for (const card of note.cards) {
      db.run("insert into cards values (?, ?, ?, ?, 0, 0, ?, ?, ?, ?, 2500, ?, 0, 0, ?, ?, 0, ?)", [
        card.id,
        note.id,
        deckId(note.deck),
        card.ord ?? 0,
        card.type,
        card.queue,
        card.due,
        card.ivl ?? 0,
        card.reps ?? 0,
        card.odue ?? 0,
        card.odid ?? 0,
        card.data ?? (schema18 ? "{}" : ""),
      ]);
      for (const review of card.reviews ?? [])
        db.run("insert into revlog values (?, ?, 0, ?, ?, ?, 2500, ?, ?)", [
          review.at,
          card.id,
          review.ease,
          review.ivl,
          review.lastIvl ?? 0,
          review.time ?? 6000,
          review.type,
        ]);
    }
  }
  db.exec("COMMIT");
  db.close();
  let bytes: Uint8Array<ArrayBuffer> = new Uint8Array(readFileSync(path));
  rmSync(dir, { recursive: true, force: true });
  if (schema18) bytes = replaceSchemaText(bytes, STAND_IN, UNICASE);
  return bytes;
}

/** Protobuf MediaEntries as current Anki writes it: entries (1) of {name (1), size (2)}. */
export function mediaEntries(names: string[]): Uint8Array<ArrayBuffer> {
  const out: number[] = [];
  const varint = (n: number) => {
    while (n > 0x7f) {
      out.push((n & 0x7f) | 0x80);
      n >>>= 7;
    }
    out.push(n);
  };
  for (const name of names) {
    const nameBytes = [...new TextEncoder().encode(name)];
    const entry = [0x0a, nameBytes.length, ...nameBytes, 0x10, 5];
    out.push(0x0a);
    varint(entry.length);
    out.push(...entry);
  }
  return new Uint8Array(out);
}

/** The .apkg of a collection in the given layout, with media `hola.png` (an image) and `a.mp3`. */
export function ankiPackage(spec: DeckSpec, layout: AnkiLayout): Promise<Uint8Array<ArrayBuffer>> {
  if (layout === "anki21b")
    return makeZip({
      // Current Anki also writes a legacy collection that only says "please update": it is ignored.
      "collection.anki2": buildCollection({ crt: 0, reviewDue: 0 }, "anki2"),
      "collection.anki21b": Bun.zstdCompressSync(buildCollection(spec, layout)),
      media: Bun.zstdCompressSync(mediaEntries(["hola.png", "a.mp3"])),
      0: Bun.zstdCompressSync(makePng(3, 3)),
      1: Bun.zstdCompressSync(new TextEncoder().encode("ID3 not an image")),
    });
  return makeZip({
    [layout === "anki21" ? "collection.anki21" : "collection.anki2"]: buildCollection(spec, layout),
    media: JSON.stringify({ 0: "hola.png", 1: "a.mp3" }),
    0: makePng(3, 3),
    1: "ID3 not an image",
  });
}

/** A legacy .apkg of the sample collection, its review card due `dueInDays` days from `now`. */
export function sampleApkg(now = Date.now(), dueInDays = 5): Promise<Uint8Array<ArrayBuffer>> {
  const crt = Math.floor((now - 100 * DAY_MS) / 1000);
  const reviewDue = Math.floor((now + dueInDays * DAY_MS - crt * 1000) / DAY_MS);
  return ankiPackage({ crt, reviewDue }, "anki2");
}

/** How a hostile collection tries to make a small file expensive to read (see anki-collection.ts). */
export type HostileKind = "generated column" | "view" | "trigger" | "computed default" | "virtual table";

const HOSTILE_NOTES: Record<HostileKind, string> = {
  "generated column":
    "create table notes (id integer primary key, guid text, mid integer, mod integer, usn integer, tags text, flds text GENERATED ALWAYS AS (zeroblob(20000000)) VIRTUAL, sfld text, csum integer, flags integer, data text);",
  view: "create table real_notes (id integer primary key); create view notes as select id, 200 as mid, '' as tags, zeroblob(20000000) as flds from real_notes;",
  "computed default":
    "create table notes (id integer primary key, guid text, mid integer, mod integer, usn integer, tags text, sfld text, csum integer, flags integer, data text);",
  "virtual table": "create virtual table notes using fts5(id, mid, tags, flds);",
  trigger:
    "create table notes (id integer primary key, guid text, mid integer, mod integer, usn integer, tags text, flds text, sfld text, csum integer, flags integer, data text);",
};

const COMPUTED_DEFAULT = "(zeroblob(999999999))";

/**
 * A tiny legacy collection built to hurt whoever reads it: `notes.flds` generated as a 20 MB
 * zeroblob (the shape that stalled the server), `notes` replaced by a view, a trigger, a
 * `flds` column added later with a function as its default (SQLite reads NULL for the rows
 * written before it, but Anki never writes one), or `notes` as a virtual table.
 */
export function hostileCollection(kind: HostileKind): Uint8Array<ArrayBuffer> {
  const dir = mkdtempSync(join(tmpdir(), "anki-hostile-"));
  const path = join(dir, "collection.anki2");
  const db = new Database(path, { create: true });
  db.exec(SCHEMA_11.replace(/create table notes \([^;]*;/, HOSTILE_NOTES[kind]).replace(/create index \w+ on notes[^;]*;/g, ""));
  db.run("insert into col values (1, 0, 0, 0, 11, 0, 0, 0, '{}', ?, ?, '{}', '{}')", [
    JSON.stringify({ 200: { name: "Basic", flds: [{ name: "Front", ord: 0 }] } }),
    JSON.stringify({ 1: { name: "Default" } }),
  ]);
  if (kind === "view") db.exec("insert into real_notes values (1), (2), (3);");
  else if (kind === "virtual table") db.exec("insert into notes (id, mid, tags, flds) values (1, 200, '', 'x');");
  else if (kind === "generated column" || kind === "computed default")
    db.exec("insert into notes (id, guid, mid, tags) values (1, 'a', 200, ''), (2, 'b', 200, ''), (3, 'c', 200, '');");
  else db.exec("insert into notes (id, guid, mid, tags, flds) values (1, 'a', 200, '', 'x');");
  // SQLite refuses to add such a default, so a same-length literal is written and then swapped in the file.
  if (kind === "computed default")
    db.exec(`alter table notes add column flds text not null default '${"x".repeat(COMPUTED_DEFAULT.length - 2)}'`);
  if (kind === "trigger") db.exec("create trigger grow after update on cards begin select zeroblob(999999999); end;");
  db.exec("insert into cards values (11, 1, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, '');");
  db.close();
  let bytes: Uint8Array<ArrayBuffer> = new Uint8Array(readFileSync(path));
  rmSync(dir, { recursive: true, force: true });
  if (kind === "computed default") bytes = replaceSchemaText(bytes, `'${"x".repeat(COMPUTED_DEFAULT.length - 2)}'`, COMPUTED_DEFAULT);
  return bytes;
}

/**
 * The file with `from` replaced by `to` (of the same length) in its schema text: how a test
 * writes DDL that bun:sqlite will not create itself (an unknown collation, a computed default).
 * Nothing else moves, so the file stays valid.
 */
export function replaceSchemaText(file: Uint8Array, from: string, to: string): Uint8Array<ArrayBuffer> {
  if (from.length !== to.length) throw new Error("the replacement must keep the length");
  const text = Buffer.from(file).toString("latin1");
  if (!text.includes(from)) throw new Error(`"${from}" is not in the file`);
  return new Uint8Array(Buffer.from(text.replaceAll(from, to), "latin1"));
}

/** The notes `richApkg` adds to the sample: math and a table, and a cloze note due now. */
export const RICH_NOTES = (reviewDue: number): FixtureNote[] => [
  {
    id: 60,
    type: "Basic",
    deck: "Science",
    fields: [
      "Mass–energy equivalence",
      "<div>Energy \\(E = mc^2\\), and displayed:</div><div>\\[\\int_0^1 x^2\\,dx = \\tfrac{1}{3}\\]</div>" +
        "<table><tr><td>c</td><td>speed of light</td></tr><tr><td>m</td><td>mass</td></tr></table>",
    ],
    tags: "physics",
    cards: [{ id: 601, type: 0, queue: 0, due: 9 }],
  },
  {
    id: 80,
    type: "Cloze",
    deck: "Languages::Spanish",
    fields: ["Un poco {{c1::de::of}} agua", "partitive"],
    cards: [{ id: 801, type: 2, queue: 2, due: reviewDue, ivl: 10, reps: 3 }],
  },
];

/** A current (anki21b) .apkg of the sample collection and RICH_NOTES, its review cards due today. */
export function richApkg(now = Date.now()): Promise<Uint8Array<ArrayBuffer>> {
  const crt = Math.floor((now - 100 * DAY_MS) / 1000);
  return ankiPackage({ crt, reviewDue: 99, creationOffset: 0, localOffset: 0, notes: RICH_NOTES(99) }, "anki21b");
}

if (import.meta.main) writeFileSync(process.argv[2]!, process.argv[3] === "rich" ? await richApkg() : await sampleApkg());
