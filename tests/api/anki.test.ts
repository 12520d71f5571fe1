import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { memoryTrackers, notes } from "../../src/db/schema";
import { ankiPackage, buildCollection, type FixtureNote, type HostileKind, hostileCollection } from "../support/anki";
import { assimilatingTitles } from "../support/learning";
import { type HttpClient, type Json, useTestServer } from "../support/server";
import { makePng, makeZip, titlesOf, treeOf } from "../support/vaults";

const DAY_MS = 86_400_000;

describe("Anki deck import", () => {
  const server = useTestServer();

  async function importDeck(client: HttpClient | undefined, bytes: Uint8Array, name = "Languages.apkg", withReviewState = true) {
    const form = new FormData();
    form.append("file", new File([bytes as Uint8Array<ArrayBuffer>], name));
    if (withReviewState) form.append("withReviewState", "true");
    const headers: Record<string, string> = client?.sessionCookie ? { cookie: `engram_session=${client.sessionCookie}` } : {};
    const response = await fetch(`${server.url}/api/notebooks/anki`, { method: "POST", body: form, headers });
    return { status: response.status, body: (await response.json()) as Json };
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
    expect(hola!.details).toBe("---\nanki_note_type: Basic\ntags:\n  - spanish\n  - greeting\n---\n\nHello  \nHi");
    expect(hola!.image).toStartWith(`image/png ${makePng(3, 3).byteLength}`);
    expect(tree.children[1]!.children[0]!.details).toBe(
      "---\nanki_note_type: Vocab\n---\n\n**Meaning**\n\nthe cat\n\n**Example**\n\n*Le chat* dort.",
    );
    const titleIds = new Map(
      server.ctx.db
        .select()
        .from(notes)
        .where(eq(notes.notebookId, server.ctx.db.select().from(notes).where(eq(notes.id, headId)).get()!.notebookId))
        .all()
        .map((n) => [n.title, n.id]),
    );
    const trackerOf = (title: string) =>
      server.ctx.db
        .select()
        .from(memoryTrackers)
        .where(eq(memoryTrackers.noteId, titleIds.get(title)!))
        .get();
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
    const result = await importDeck(learner, await ankiPackage({ crt, reviewDue }, "anki2"));
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

  test("a current collection.anki21b package (schema 18: WITHOUT ROWID tables, COLLATE unicase, zstd, protobuf media list) reads the same; without the checkbox no trackers", async () => {
    const learner = await server.client().loginAs("old_learner");
    const { crt, reviewDue, expectedDue } = spec();
    const apkg = await ankiPackage({ crt, reviewDue }, "anki21b");
    const result = await importDeck(learner, apkg);
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ created: 6, images: 1, trackers: 2 });
    checkImported(result.body.noteId, expectedDue);

    const without = await importDeck(learner, apkg, "Again.apkg", false);
    expect(without.body).toMatchObject({ created: 6, trackers: 0 });
  });

  test("a collection.anki21 package (Anki 2.1's schema 11 with the v2 scheduler) reads the same", async () => {
    const learner = await server.client().loginAs("old_learner");
    const { crt, reviewDue, expectedDue } = spec();
    const result = await importDeck(learner, await ankiPackage({ crt, reviewDue }, "anki21"));
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ created: 6, images: 1, trackers: 2 });
    checkImported(result.body.noteId, expectedDue);
  });

  test("field HTML becomes Markdown: CSS dropped, ruby, tables, sub/sup, math, links kept, escaped HTML stays text", async () => {
    const learner = await server.client().loginAs("old_learner");
    const { crt, reviewDue } = spec();
    const rich: FixtureNote = {
      id: 60,
      type: "Basic",
      deck: "Science",
      fields: [
        "<ruby>水<rt>みず</rt></ruby> &lt;script&gt;",
        "<style>.card { font-family: serif; }</style><div>H<sub>2</sub>O at 10<sup>-3</sup> \\(E = mc^2\\)</div>" +
          '<table><tr><td>a</td><td>b</td></tr><tr><td>1</td><td>2</td></tr></table><a href="https://example.org/w">wiki</a>',
      ],
      cards: [{ id: 601, type: 0, queue: 0, due: 9 }],
    };
    const result = await importDeck(learner, await ankiPackage({ crt, reviewDue, notes: [rich] }, "anki21b"));
    expect(result.status).toBe(200);
    const note = server.ctx.db.select().from(notes).where(eq(notes.title, "水(みず) <script>")).get()!;
    expect(note.details).toBe(
      "---\nanki_note_type: Basic\n---\n\nH₂O at 10⁻³ $E = mc^2$\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n\n[wiki](https://example.org/w)",
    );
    const page = await (
      await fetch(`${server.url}/n${note.id}`, { headers: { cookie: `engram_session=${learner.sessionCookie}` } })
    ).text();
    expect(page).toContain("水(みず) &lt;script&gt;");
    expect(page).not.toContain("<script>");
    expect(page).not.toContain("font-family");
  });

  test("no text is lost: a first field longer than a title is shortened in the title and kept whole in the details", async () => {
    const learner = await server.client().loginAs("old_learner");
    const { crt, reviewDue } = spec();
    const long = `${"A sentence that goes on. ".repeat(8)}The point comes last.`;
    const result = await importDeck(
      learner,
      await ankiPackage(
        {
          crt,
          reviewDue,
          notes: [{ id: 70, type: "Basic", deck: "Science", fields: [long, "back"], cards: [{ id: 701, type: 0, queue: 0, due: 1 }] }],
        },
        "anki21b",
      ),
    );
    expect(result.status).toBe(200);
    const note = server.ctx.db
      .select()
      .from(notes)
      .where(eq(notes.details, `---\nanki_note_type: Basic\n---\n\n**Front**\n\n${long}\n\n**Back**\n\nback`))
      .get()!;
    expect(note.title.length).toBeLessThanOrEqual(150);
    expect(note.title).toEndWith("…");
    expect(long.startsWith(note.title.slice(0, -1))).toBe(true);
  });

  test("a cloze note is recalled by spelling its answer, the title showing the blank and the hint", async () => {
    const learner = await server.client().loginAs("old_learner");
    const { crt, reviewDue } = spec();
    const clozeNote: FixtureNote = {
      id: 80,
      type: "Cloze",
      deck: "Languages::Spanish",
      fields: ["Un poco {{c1::de::of}} agua", "partitive"],
      cards: [{ id: 801, type: 2, queue: 2, due: reviewDue, ivl: 10, reps: 3 }],
    };
    const result = await importDeck(learner, await ankiPackage({ crt, reviewDue, notes: [clozeNote] }, "anki21b"));
    expect(result.status).toBe(200);
    const note = server.ctx.db.select().from(notes).where(eq(notes.title, "Un poco [of] agua")).get()!;
    expect(note.details).toContain("Un poco de agua");
    expect(note.details).toContain("cloze_answer: de");
    expect(note.rememberSpelling).toBe(true);
    const trackers = server.ctx.db.select().from(memoryTrackers).where(eq(memoryTrackers.noteId, note.id)).all();
    expect(trackers.map((tracker) => tracker.spelling).sort()).toEqual([false, true]);
    const spelling = trackers.find((tracker) => tracker.spelling)!;
    const question = await learner.get(`/api/memory-trackers/${spelling.id}/spelling-question`);
    expect(question.body.stem).toBe('<p class="cloze-question">Un poco [of] agua</p>');
    expect(question.body.stem).not.toContain(">de<");
    const wrong = await learner.post(`/api/memory-trackers/${spelling.id}/answer-spelling`, { spellingAnswer: "of" });
    expect(wrong.body.isCorrect).toBe(false);
    const right = await learner.post(`/api/memory-trackers/${spelling.id}/answer-spelling`, { spellingAnswer: "De" });
    expect(right.body.isCorrect).toBe(true);
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

  test("a hostile collection is refused, read in a worker process while the server goes on answering", async () => {
    const learner = await server.client().loginAs("old_learner");
    const before = (await learner.get("/api/notebooks")).body.notebooks.length;
    const refusals: Record<HostileKind, string> = {
      "generated column": "the collection's notes.flds is a generated column, which Anki never writes",
      view: 'the collection\'s "notes" is a view, not a table',
      trigger: 'the collection has a trigger ("grow"), which Anki never writes',
      "computed default": "the collection's notes.flds has a computed default, which Anki never writes",
      "virtual table": 'the collection\'s "notes" is a virtual table, not a table',
    };
    for (const [kind, reason] of Object.entries(refusals) as [HostileKind, string][]) {
      const apkg = await makeZip({ "collection.anki2": hostileCollection(kind) });
      // The healthcheck is sent with the import: it must not wait for the deck to be read.
      const order: string[] = [];
      const importing = importDeck(learner, apkg).then((result) => {
        order.push("import");
        return result;
      });
      const health = await fetch(`${server.url}/api/healthcheck`);
      order.push("healthcheck");
      expect(health.status).toBe(200);
      const result = await importing;
      expect(result.status).toBe(400);
      expect(result.body.errors.file).toBe(`Failed to import file: ${reason}`);
      expect(order).toEqual(["healthcheck", "import"]);
    }
    expect((await learner.get("/api/notebooks")).body.notebooks.length).toBe(before);
  });

  test("a note whose fields are over the size a note may have is skipped and reported, the rest imported", async () => {
    const learner = await server.client().loginAs("old_learner");
    const { crt, reviewDue } = spec();
    const apkg = await makeZip({ "collection.anki2": buildCollection({ crt, reviewDue, hugeNote: true }, "anki2") });
    const result = await importDeck(learner, apkg);
    expect(result.status).toBe(200);
    expect(result.body.skipped).toContainEqual({
      path: "note 5",
      reason: "its fields hold 2048 KiB, more than the 1024 KiB a note may have; it was not imported",
    });
    expect(result.body.created).toBe(6);
  });
});
