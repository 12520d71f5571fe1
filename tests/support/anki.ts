/**
 * Anki packages built in tests: a small collection (a deck tree, two note types, media and review
 * history) in the legacy or the current (schema 18) layout. Run directly, it writes a sample
 * legacy .apkg to the path given (the e2e test uses it: Playwright runs on Node, without bun:sqlite).
 */
import { Database } from "bun:sqlite";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makePng, makeZip } from "./vaults";

export interface DeckSpec {
  /** Collection creation time (seconds). */
  crt: number;
  /** The day numbers (since the collection's creation day) the review cards are due. */
  reviewDue: number;
  /** Adds a note whose fields hold 2 MiB (over what a note may have). */
  hugeNote?: boolean;
}

const DAY_MS = 86_400_000;

const LEGACY_TABLES = `
  CREATE TABLE col (id integer primary key, crt integer not null, mod integer, scm integer, ver integer, dty integer, usn integer, ls integer, conf text, models text, decks text, dconf text, tags text);
  CREATE TABLE notes (id integer primary key, guid text, mid integer, mod integer, usn integer, tags text, flds text, sfld text, csum integer, flags integer, data text);
  CREATE TABLE cards (id integer primary key, nid integer, did integer, ord integer, mod integer, usn integer, type integer, queue integer, due integer, ivl integer, factor integer, reps integer, lapses integer, left integer, odue integer, odid integer, flags integer, data text);
  CREATE TABLE revlog (id integer primary key, cid integer, usn integer, ease integer, ivl integer, lastIvl integer, factor integer, time integer, type integer);`;

/** A small collection: a deck tree (Languages::Spanish, Languages::French, an empty Default), two note types, media and review history. */
export function buildCollection(spec: DeckSpec, schema18: boolean): Uint8Array {
  const dir = mkdtempSync(join(tmpdir(), "anki-test-"));
  const path = join(dir, "collection.anki2");
  const db = new Database(path, { create: true });
  db.exec(LEGACY_TABLES);
  // 103 is a filtered deck: its cards belong to their original deck (odid).
  const decks = { 1: "Default", 100: "Languages", 101: "Languages::Spanish", 102: "Languages::French", 103: "Cram" };
  const models = { 200: { name: "Basic", fields: ["Front", "Back"] }, 201: { name: "Vocab", fields: ["Word", "Meaning", "Example"] } };
  if (schema18) {
    db.exec(`CREATE TABLE decks (id integer primary key, name text, mtime_secs integer, usn integer, common blob, kind blob);
      CREATE TABLE notetypes (id integer primary key, name text, mtime_secs integer, usn integer, config blob);
      CREATE TABLE fields (ntid integer, ord integer, name text, config blob, primary key (ntid, ord));`);
    for (const [id, name] of Object.entries(decks))
      db.run("INSERT INTO decks (id, name) VALUES (?, ?)", [Number(id), name.replaceAll("::", "\x1f")]);
    for (const [id, model] of Object.entries(models)) {
      db.run("INSERT INTO notetypes (id, name) VALUES (?, ?)", [Number(id), model.name]);
      for (const [ord, field] of model.fields.entries())
        db.run("INSERT INTO fields (ntid, ord, name) VALUES (?, ?, ?)", [Number(id), ord, field]);
    }
    db.run("INSERT INTO col (id, crt, models, decks) VALUES (1, ?, '', '')", [spec.crt]);
  } else {
    const decksJson = Object.fromEntries(Object.entries(decks).map(([id, name]) => [id, { id: Number(id), name }]));
    const modelsJson = Object.fromEntries(
      Object.entries(models).map(([id, model]) => [
        id,
        { name: model.name, flds: model.fields.map((name, ord) => ({ name, ord })).reverse() },
      ]),
    );
    db.run("INSERT INTO col (id, crt, models, decks) VALUES (1, ?, ?, ?)", [
      spec.crt,
      JSON.stringify(modelsJson),
      JSON.stringify(decksJson),
    ]);
  }
  const note = (id: number, mid: number, fields: string[], tags: string) =>
    db.run("INSERT INTO notes (id, guid, mid, tags, flds, sfld) VALUES (?, ?, ?, ?, ?, ?)", [
      id,
      `g${id}`,
      mid,
      tags,
      fields.join("\x1f"),
      fields[0]!,
    ]);
  const card = (
    id: number,
    nid: number,
    did: number,
    ord: number,
    type: number,
    queue: number,
    due: number,
    ivl: number,
    reps: number,
    odid = 0,
  ) =>
    db.run("INSERT INTO cards (id, nid, did, ord, type, queue, due, ivl, reps, odid) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", [
      id,
      nid,
      did,
      ord,
      type,
      queue,
      due,
      ivl,
      reps,
      odid,
    ]);
  note(1, 200, ["<b>Hola</b>", 'Hello<br>Hi <img src="hola.png">'], " spanish greeting ");
  card(11, 1, 101, 0, 2, 2, spec.reviewDue, 10, 4);
  card(12, 1, 101, 1, 0, 0, 5, 0, 0);
  db.run("INSERT INTO revlog (id, cid, ease, ivl, type) VALUES (?, 11, 3, 10, 1)", [(spec.crt + 2 * 86_400) * 1000]);
  note(2, 201, ["le chat", "the cat", "<i>Le chat</i> dort."], "");
  card(21, 2, 102, 0, 0, 0, 1, 0, 0);
  note(3, 200, ["Suspended &amp; gone", "x"], "");
  card(31, 3, 101, 0, 2, -1, spec.reviewDue, 3, 2);
  note(4, 200, ["Sound", "[sound:a.mp3]"], "");
  card(41, 4, 103, 0, 0, 0, 2, 0, 0, 101);
  if (spec.hugeNote) {
    note(5, 200, ["Huge", "x".repeat(2 * 1024 * 1024)], "");
    card(51, 5, 101, 0, 0, 0, 3, 0, 0);
  }
  db.close();
  const bytes = new Uint8Array(readFileSync(path));
  rmSync(dir, { recursive: true, force: true });
  return bytes;
}

/** Protobuf MediaEntries as current Anki writes it: entries (1) of {name (1), size (2)}. */
export function mediaEntries(names: string[]): Uint8Array {
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

/** A legacy .apkg of that collection, its review card due `dueInDays` days from `now`. */
export async function sampleApkg(now = Date.now(), dueInDays = 5): Promise<Uint8Array> {
  const crt = Math.floor((now - 100 * DAY_MS) / 1000);
  const crtDay = Math.floor((crt * 1000) / DAY_MS) * DAY_MS;
  const reviewDue = Math.floor((now + dueInDays * DAY_MS - crtDay) / DAY_MS);
  return makeZip({
    "collection.anki2": buildCollection({ crt, reviewDue }, false),
    media: JSON.stringify({ 0: "hola.png", 1: "a.mp3" }),
    0: makePng(3, 3),
    1: "ID3 not an image",
  });
}

if (import.meta.main) writeFileSync(process.argv[2]!, await sampleApkg());

/** How a hostile collection tries to make a small file expensive to read (see anki-collection.ts). */
export type HostileKind = "generated column" | "view" | "trigger" | "computed default" | "virtual table";

/**
 * A tiny legacy collection built to hurt whoever reads it: `notes.flds` generated as a 20 MB
 * zeroblob (the shape that stalled the server), `notes` replaced by a view, a trigger, a
 * `flds` column added later with a function as its default (SQLite reads NULL for the rows
 * written before it, but Anki never writes one), or `notes` as a virtual table.
 */
export function hostileCollection(kind: HostileKind): Uint8Array {
  const dir = mkdtempSync(join(tmpdir(), "anki-hostile-"));
  const path = join(dir, "collection.anki2");
  const db = new Database(path, { create: true });
  const notes =
    kind === "generated column"
      ? "CREATE TABLE notes (id integer primary key, guid text, mid integer, mod integer, usn integer, tags text, flds text GENERATED ALWAYS AS (zeroblob(20000000)) VIRTUAL, sfld text, csum integer, flags integer, data text);"
      : kind === "view"
        ? "CREATE TABLE real_notes (id integer primary key); CREATE VIEW notes AS SELECT id, 200 AS mid, '' AS tags, zeroblob(20000000) AS flds FROM real_notes;"
        : kind === "computed default"
          ? "CREATE TABLE notes (id integer primary key, guid text, mid integer, mod integer, usn integer, tags text, sfld text, csum integer, flags integer, data text);"
          : kind === "virtual table"
            ? "CREATE VIRTUAL TABLE notes USING fts5(id, mid, tags, flds);"
            : "CREATE TABLE notes (id integer primary key, guid text, mid integer, mod integer, usn integer, tags text, flds text, sfld text, csum integer, flags integer, data text);";
  db.exec(LEGACY_TABLES.replace(/CREATE TABLE notes \([^;]*;/, notes));
  db.run("INSERT INTO col (id, crt, models, decks) VALUES (1, 0, ?, ?)", [
    JSON.stringify({ 200: { name: "Basic", flds: [{ name: "Front", ord: 0 }] } }),
    JSON.stringify({ 1: { name: "Default" } }),
  ]);
  if (kind === "view") db.exec("INSERT INTO real_notes VALUES (1), (2), (3);");
  else if (kind === "virtual table") db.exec("INSERT INTO notes (id, mid, tags, flds) VALUES (1, 200, '', 'x');");
  else if (kind === "generated column" || kind === "computed default")
    db.exec("INSERT INTO notes (id, guid, mid, tags) VALUES (1, 'a', 200, ''), (2, 'b', 200, ''), (3, 'c', 200, '');");
  else db.exec("INSERT INTO notes (id, guid, mid, tags, flds) VALUES (1, 'a', 200, '', 'x');");
  // SQLite refuses to add such a default, so a same-length literal is written and then swapped in the file.
  if (kind === "computed default")
    db.exec(`ALTER TABLE notes ADD COLUMN flds text NOT NULL DEFAULT '${"x".repeat(COMPUTED_DEFAULT.length - 2)}'`);
  if (kind === "trigger") db.exec("CREATE TRIGGER grow AFTER UPDATE ON cards BEGIN SELECT zeroblob(999999999); END;");
  db.exec("INSERT INTO cards (id, nid, did, ord, type, queue, due, ivl, reps, odid) VALUES (11, 1, 1, 0, 0, 0, 1, 0, 0, 0);");
  db.close();
  let bytes: Uint8Array<ArrayBuffer> = new Uint8Array(readFileSync(path));
  rmSync(dir, { recursive: true, force: true });
  if (kind === "computed default") bytes = replaceSchemaText(bytes, `'${"x".repeat(COMPUTED_DEFAULT.length - 2)}'`, COMPUTED_DEFAULT);
  return bytes;
}

const COMPUTED_DEFAULT = "(zeroblob(999999999))";

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
