import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { eq } from "drizzle-orm";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memoryTrackers, notes } from "../../src/db/schema";
import { assimilatingTitles } from "../support/learning";
import { type HttpClient, useTestServer } from "../support/server";
import { makePng, makeZip, titlesOf, treeOf } from "../support/vaults";

const DAY_MS = 86_400_000;

interface DeckSpec {
  /** Collection creation time (seconds). */
  crt: number;
  /** The day numbers (since the collection's creation day) the review cards are due. */
  reviewDue: number;
}

const LEGACY_TABLES = `
  CREATE TABLE col (id integer primary key, crt integer not null, mod integer, scm integer, ver integer, dty integer, usn integer, ls integer, conf text, models text, decks text, dconf text, tags text);
  CREATE TABLE notes (id integer primary key, guid text, mid integer, mod integer, usn integer, tags text, flds text, sfld text, csum integer, flags integer, data text);
  CREATE TABLE cards (id integer primary key, nid integer, did integer, ord integer, mod integer, usn integer, type integer, queue integer, due integer, ivl integer, factor integer, reps integer, lapses integer, left integer, odue integer, odid integer, flags integer, data text);
  CREATE TABLE revlog (id integer primary key, cid integer, usn integer, ease integer, ivl integer, lastIvl integer, factor integer, time integer, type integer);`;

/** A small collection: a deck tree (Languages::Spanish, Languages::French, an empty Default), two note types, media and review history. */
function buildCollection(spec: DeckSpec, schema18: boolean): Uint8Array {
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
    for (const [id, name] of Object.entries(decks)) db.run("INSERT INTO decks (id, name) VALUES (?, ?)", [Number(id), name.replaceAll("::", "\x1f")]);
    for (const [id, model] of Object.entries(models)) {
      db.run("INSERT INTO notetypes (id, name) VALUES (?, ?)", [Number(id), model.name]);
      model.fields.forEach((field, ord) => db.run("INSERT INTO fields (ntid, ord, name) VALUES (?, ?, ?)", [Number(id), ord, field]));
    }
    db.run("INSERT INTO col (id, crt, models, decks) VALUES (1, ?, '', '')", [spec.crt]);
  } else {
    const decksJson = Object.fromEntries(Object.entries(decks).map(([id, name]) => [id, { id: Number(id), name }]));
    const modelsJson = Object.fromEntries(Object.entries(models).map(([id, model]) => [id, { name: model.name, flds: model.fields.map((name, ord) => ({ name, ord })).reverse() }]));
    db.run("INSERT INTO col (id, crt, models, decks) VALUES (1, ?, ?, ?)", [spec.crt, JSON.stringify(modelsJson), JSON.stringify(decksJson)]);
  }
  const note = (id: number, mid: number, fields: string[], tags: string) =>
    db.run("INSERT INTO notes (id, guid, mid, tags, flds, sfld) VALUES (?, ?, ?, ?, ?, ?)", [id, `g${id}`, mid, tags, fields.join("\x1f"), fields[0]!]);
  const card = (id: number, nid: number, did: number, ord: number, type: number, queue: number, due: number, ivl: number, reps: number, odid = 0) =>
    db.run("INSERT INTO cards (id, nid, did, ord, type, queue, due, ivl, reps, odid) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", [id, nid, did, ord, type, queue, due, ivl, reps, odid]);
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
  db.close();
  const bytes = new Uint8Array(readFileSync(path));
  rmSync(dir, { recursive: true, force: true });
  return bytes;
}

/** Protobuf MediaEntries as current Anki writes it: entries (1) of {name (1), size (2)}. */
function mediaEntries(names: string[]): Uint8Array {
  const out: number[] = [];
  const varint = (n: number) => {
    while (n > 0x7f) { out.push((n & 0x7f) | 0x80); n >>>= 7; }
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

describe("Anki deck import", () => {
  const server = useTestServer();

  async function importDeck(client: HttpClient | undefined, bytes: Uint8Array, name = "Languages.apkg", withReviewState = true) {
    const form = new FormData();
    form.append("file", new File([bytes as Uint8Array<ArrayBuffer>], name));
    if (withReviewState) form.append("withReviewState", "true");
    const headers: Record<string, string> = client?.sessionCookie ? { cookie: `engram_session=${client.sessionCookie}` } : {};
    const response = await fetch(`${server.url}/api/notebooks/anki`, { method: "POST", body: form, headers });
    return { status: response.status, body: await response.json() as any };
  }

  function spec() {
    const now = server.ctx.clock.now().getTime();
    const crt = Math.floor((now - 100 * DAY_MS) / 1000);
    const crtDay = Math.floor((crt * 1000) / DAY_MS) * DAY_MS;
    const reviewDue = Math.floor((now + 5 * DAY_MS - crtDay) / DAY_MS);
    return { crt, reviewDue, expectedDue: new Date(crtDay + reviewDue * DAY_MS + DAY_MS / 6) };
  }

  function checkImported(headId: number, expectedDue: Date) {
    const tree = treeOf(server, headId);
    expect(titlesOf(tree)).toEqual({ Languages: [{ Spanish: ["Hola", "Suspended & gone", "Sound"] }, { French: ["le chat"] }] });
    const [hola, suspended] = tree.children[0]!.children;
    expect(hola!.details).toBe("---\nanki_note_type: Basic\ntags:\n  - spanish\n  - greeting\n---\n\nHello\nHi");
    expect(hola!.image).toStartWith(`image/png ${makePng(3, 3).byteLength}`);
    expect(tree.children[1]!.children[0]!.details).toBe("---\nanki_note_type: Vocab\n---\n\n**Meaning**\n\nthe cat\n\n**Example**\n\n*Le chat* dort.");
    const titleIds = new Map(server.ctx.db.select().from(notes).where(eq(notes.notebookId, server.ctx.db.select().from(notes).where(eq(notes.id, headId)).get()!.notebookId)).all().map((n) => [n.title, n.id]));
    const trackerOf = (title: string) => server.ctx.db.select().from(memoryTrackers).where(eq(memoryTrackers.noteId, titleIds.get(title)!)).get();
    const holaTracker = trackerOf("Hola")!;
    expect(holaTracker.nextRecallAt).toEqual(expectedDue);
    expect(holaTracker.lastRecalledAt).toEqual(new Date(expectedDue.getTime() - 10 * DAY_MS));
    expect(holaTracker.repetitionCount).toBe(4);
    expect(holaTracker.removedFromTracking).toBe(false);
    expect(holaTracker.forgettingCurveIndex).toBeGreaterThan(100);
    expect(suspended && trackerOf("Suspended & gone")!.removedFromTracking).toBe(true);
    expect(trackerOf("le chat")).toBeUndefined();
  }

  test("a legacy collection.anki2 package becomes a notebook: deck tree, fields, tags, media, review state", async () => {
    const learner = await server.client().loginAs("old_learner");
    const { crt, reviewDue, expectedDue } = spec();
    const apkg = await makeZip({
      "collection.anki2": buildCollection({ crt, reviewDue }, false),
      media: JSON.stringify({ 0: "hola.png", 1: "a.mp3" }),
      0: makePng(3, 3),
      1: "ID3 not an image",
    });
    const result = await importDeck(learner, apkg);
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ created: 6, images: 1, trackers: 2 });
    expect(result.body.skipped).toEqual([{ path: "a.mp3", reason: "sound is not imported" }]);
    checkImported(result.body.noteId, expectedDue);
    expect((await learner.get("/api/notebooks")).body.notebooks.map((n: { title: string }) => n.title)).toContain("Languages");
    // Notes with a carried-over tracker are not offered again; new cards and the deck notes are.
    const assimilating = await assimilatingTitles(learner);
    expect(assimilating).toContain("le chat");
    expect(assimilating).not.toContain("Hola");
    expect(assimilating).not.toContain("Suspended & gone");
  });

  test("a current collection.anki21b package (zstd, protobuf media list) reads the same; without the checkbox no trackers", async () => {
    const learner = await server.client().loginAs("old_learner");
    const { crt, reviewDue, expectedDue } = spec();
    const apkg = await makeZip({
      // Current Anki also writes a legacy collection that only says "please update": it is ignored.
      "collection.anki2": buildCollection({ crt: 0, reviewDue: 0 }, false),
      "collection.anki21b": Bun.zstdCompressSync(buildCollection({ crt, reviewDue }, true)),
      media: Bun.zstdCompressSync(mediaEntries(["hola.png", "a.mp3"])),
      0: Bun.zstdCompressSync(makePng(3, 3)),
      1: Bun.zstdCompressSync(new TextEncoder().encode("ID3")),
    });
    const result = await importDeck(learner, apkg);
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ created: 6, images: 1, trackers: 2 });
    checkImported(result.body.noteId, expectedDue);

    const without = await importDeck(learner, apkg, "Again.apkg", false);
    expect(without.body).toMatchObject({ created: 6, trackers: 0 });
  });

  test("damaged or unsupported files are refused and nothing is imported; signed out is 401", async () => {
    const learner = await server.client().loginAs("old_learner");
    const before = (await learner.get("/api/notebooks")).body.notebooks.length;
    const notZip = await importDeck(learner, new TextEncoder().encode("not a zip at all"));
    expect(notZip.status).toBe(400);
    expect(notZip.body.errors.file).toStartWith("Failed to import file: the file is not a zip archive or it is damaged");
    const noCollection = await importDeck(learner, await makeZip({ "readme.txt": "hi" }));
    expect(noCollection.body.errors.file).toBe("Failed to import file: the file is not an Anki deck package (no collection inside)");
    const badDb = await importDeck(learner, await makeZip({ "collection.anki2": "SQLite format 3\0 but not really" }));
    expect(badDb.status).toBe(400);
    expect(badDb.body.errors.file).toStartWith("Failed to import file: the collection");
    const badZstd = await importDeck(learner, await makeZip({ "collection.anki21b": new Uint8Array([0x28, 0xb5, 0x2f, 0xfd, 1, 2, 3]) }));
    expect(badZstd.body.errors.file).toStartWith("Failed to import file: the collection is damaged");
    const wrongName = await importDeck(learner, await makeZip({ "a.md": "x" }), "deck.zip");
    expect(wrongName.body.errors).toEqual({ file: "must be an .apkg file" });
    expect((await learner.get("/api/notebooks")).body.notebooks.length).toBe(before);
    expect((await importDeck(undefined, new Uint8Array(1))).status).toBe(401);
  });
});
