import { describe, expect, test } from "bun:test";
import { asc, eq, type SQL } from "drizzle-orm";
import { all, one, type Tables } from "../../src/store/session";
import {
  type AnkiLayout,
  ankiPackage,
  buildCollection,
  dayAt,
  type FixtureNote,
  type HostileKind,
  hostileCollection,
} from "../support/anki";
import { assimilatingTitles } from "../support/learning";
import { type HttpClient, type Json, useTestServer } from "../support/server";
import { inRead } from "../support/test-database";
import { makePng, makeZip, titlesOf, treeOf } from "../support/vaults";

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

describe("Anki deck import", () => {
  const server = useTestServer();

  /** The first note (by id) that `where` picks. */
  const noteWhere = (where: (n: Tables["notes"]) => SQL) =>
    inRead(server, function* (s) {
      return yield* one(s, s.db.select().from(s.t.notes).where(where(s.t.notes)).orderBy(asc(s.t.notes.id)).limit(1));
    });
  const noteTitled = async (title: string) => (await noteWhere((n) => eq(n.title, title)))!;
  /** A note's memory trackers, oldest first. */
  const trackersOfNote = (noteId: number) =>
    inRead(server, function* (s) {
      const t = s.t.memoryTrackers;
      return yield* all(s, s.db.select().from(t).where(eq(t.noteId, noteId)).orderBy(asc(t.id)));
    });
  const trackerOfNote = async (noteId: number) => (await trackersOfNote(noteId))[0];

  async function importDeck(client: HttpClient | undefined, bytes: Uint8Array, name = "Languages.apkg", withReviewState = true) {
    const form = new FormData();
    form.append("file", new File([bytes as Uint8Array<ArrayBuffer>], name));
    if (withReviewState) form.append("withReviewState", "true");
    const headers: Record<string, string> = client?.sessionCookie ? { cookie: `engram_session=${client.sessionCookie}` } : {};
    const response = await fetch(`${server.url}/api/notebooks/anki`, { method: "POST", body: form, headers });
    return { status: response.status, body: (await response.json()) as Json };
  }

  /**
   * A collection created 100 days ago whose review card is due on day 105, and when that day
   * starts for Anki: each layout counts days its own way (anki-timing.ts). The anki21 collection
   * last ran at UTC-5, the anki21b one was created and last ran at UTC+10.
   */
  function spec(layout: AnkiLayout = "anki2") {
    const now = server.ctx.clock.now().getTime();
    const crt = Math.floor((now - 100 * DAY_MS) / 1000);
    const reviewDue = 105;
    const dateOf = (instant: number, minutesWest: number) => Math.floor((instant - minutesWest * MINUTE_MS) / DAY_MS) * DAY_MS;
    const expectedDue =
      layout === "anki2"
        ? // v1 scheduler: day n starts n days after crt itself.
          new Date(crt * 1000 + reviewDue * DAY_MS)
        : layout === "anki21"
          ? // v2, no creation offset: crt's date at 4 am in the last offset, plus n days.
            new Date(dateOf(crt * 1000, 300) + 4 * HOUR_MS + 300 * MINUTE_MS + reviewDue * DAY_MS)
          : // v2 with a creation offset: the creation date plus n days, at 4 am local time.
            new Date(dateOf(crt * 1000, -600) + reviewDue * DAY_MS + 4 * HOUR_MS - 600 * MINUTE_MS);
    const timing = layout === "anki21" ? { localOffset: 300 } : layout === "anki21b" ? { creationOffset: -600, localOffset: -600 } : {};
    return { crt, reviewDue, expectedDue, ...timing };
  }

  async function checkImported(headId: number, deck: ReturnType<typeof spec>) {
    const expectedDue = deck.expectedDue;
    const tree = await treeOf(server, headId);
    expect(titlesOf(tree)).toEqual({ Languages: [{ Spanish: ["Hola", "Suspended & gone", "Sound"] }, { French: ["le chat"] }] });
    const [hola, suspended] = tree.children[0]!.children;
    expect(hola!.details).toBe("---\nanki_note_type: Basic\ntags:\n  - spanish\n  - greeting\n---\n\nHello\n\nHi");
    expect(hola!.image).toStartWith(`image/png ${makePng(3, 3).byteLength}`);
    expect(tree.children[1]!.children[0]!.details).toBe(
      "---\nanki_note_type: Vocab\n---\n\n**Meaning**\n\nthe cat\n\n**Example**\n\n*Le chat* dort.",
    );
    const notebookId = (await noteWhere((n) => eq(n.id, headId)))!.notebookId;
    const inNotebook = await inRead(server, function* (s) {
      return yield* all(s, s.db.select().from(s.t.notes).where(eq(s.t.notes.notebookId, notebookId)));
    });
    const titleIds = new Map(inNotebook.map((n) => [n.title, n.id]));
    const trackerOf = (title: string) => trackerOfNote(titleIds.get(title)!);
    const holaTracker = (await trackerOf("Hola"))!;
    expect(holaTracker.nextRecallAt).toEqual(expectedDue);
    expect(holaTracker.lastRecalledAt).toEqual(new Date(dayAt(deck, deck.reviewDue - 10)));
    expect(holaTracker.assimilatedAt).toEqual(new Date(dayAt(deck, deck.reviewDue - 13)));
    expect(holaTracker.repetitionCount).toBe(4);
    expect(holaTracker.removedFromTracking).toBe(false);
    expect(holaTracker.forgettingCurveIndex).toBeGreaterThan(100);
    expect(suspended && (await trackerOf("Suspended & gone"))!.removedFromTracking).toBe(true);
    expect(await trackerOf("le chat")).toBeUndefined();
  }

  test("a legacy collection.anki2 package becomes a notebook: deck tree, fields, tags, media, review state", async () => {
    const learner = await server.client().loginAs("old_learner");
    const deck = spec("anki2");
    const result = await importDeck(learner, await ankiPackage(deck, "anki2"));
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ created: 6, images: 1, trackers: 2, reviews: 2 });
    expect(result.body.skipped).toEqual([
      { path: "a.mp3", reason: "a sound, not imported: Engram notes hold no audio (the note keeps its text)" },
    ]);
    await checkImported(result.body.noteId, deck);
    expect((await learner.get("/api/notebooks")).body.notebooks.map((n: { title: string }) => n.title)).toContain("Languages");
    // Notes with a carried-over tracker are not offered again; new cards and the deck notes are.
    const assimilating = await assimilatingTitles(learner);
    expect(assimilating).toContain("le chat");
    expect(assimilating).not.toContain("Hola");
    expect(assimilating).not.toContain("Suspended & gone");
  });

  test("a current collection.anki21b package (schema 18: WITHOUT ROWID tables, COLLATE unicase, zstd, protobuf media list) reads the same; without the checkbox no trackers", async () => {
    const learner = await server.client().loginAs("old_learner");
    const deck = spec("anki21b");
    const apkg = await ankiPackage(deck, "anki21b");
    const result = await importDeck(learner, apkg);
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ created: 6, images: 1, trackers: 2, reviews: 2 });
    await checkImported(result.body.noteId, deck);

    const without = await importDeck(learner, apkg, "Again.apkg", false);
    expect(without.body).toMatchObject({ created: 6, trackers: 0, reviews: 0 });
  });

  test("a collection.anki21 package (Anki 2.1's schema 11 with the v2 scheduler) reads the same", async () => {
    const learner = await server.client().loginAs("old_learner");
    const deck = spec("anki21");
    const result = await importDeck(learner, await ankiPackage(deck, "anki21"));
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ created: 6, images: 1, trackers: 2, reviews: 2 });
    await checkImported(result.body.noteId, deck);
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
    const note = await noteTitled("水(みず) <script>");
    expect(note.details).toBe(
      "---\nanki_note_type: Basic\n---\n\nH₂O at 10⁻³ $E = mc^2$\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n\n[wiki](https://example.org/w)",
    );
    const page = await (
      await fetch(`${server.url}/n${note.id}`, { headers: { cookie: `engram_session=${learner.sessionCookie}` } })
    ).text();
    expect(page).toContain("水(みず) &lt;script&gt;");
    expect(page).not.toContain("<script>");
    expect(page).not.toContain("font-family");
    // The math is typeset on the server, and the page links KaTeX's stylesheet.
    expect(page).toContain('<annotation encoding="application/x-tex">E = mc^2</annotation>');
    expect(page).toMatch(/<link rel="stylesheet" href="\/assets\/katex-[0-9a-f]+\.css"/);
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
    const note = (await noteWhere((n) => eq(n.details, `---\nanki_note_type: Basic\n---\n\n**Front**\n\n${long}\n\n**Back**\n\nback`)))!;
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
    const note = await noteTitled("Un poco [of] agua");
    expect(note.details).toContain("Un poco de agua");
    expect(note.details).toContain("cloze_answer: de");
    expect(note.rememberSpelling).toBe(true);
    const trackers = await trackersOfNote(note.id);
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

  test("the review history goes into the recall log, feeding the statistics and FSRS fitting", async () => {
    const learner = await server.client().loginAs("old_learner");
    const deck = spec("anki21b");
    const result = await importDeck(learner, await ankiPackage(deck, "anki21b"));
    expect(result.body.reviews).toBe(2);
    const hola = await noteTitled("Hola");
    const tracker = (await trackerOfNote(hola.id))!;
    const log = (await learner.get(`/api/recall-log?memoryTracker=${tracker.id}`)).body as {
      kind: string;
      outcome: string;
      reviewedAt: string;
      thinkingTimeMs: number | null;
      scheduledHours: number | null;
      elapsedHours: number | null;
      stateAfter: Record<string, unknown>;
    }[];
    // Newest first: the review, the failed learning step (the first answer is the assimilation); no manual reschedule.
    expect(log.map((row) => [row.kind, row.outcome, row.reviewedAt])).toEqual([
      ["anki", "success", new Date(dayAt(deck, deck.reviewDue - 10)).toISOString()],
      ["anki", "failure", new Date(dayAt(deck, deck.reviewDue - 13) + 600_000).toISOString()],
      ["assimilation", "success", new Date(dayAt(deck, deck.reviewDue - 13)).toISOString()],
    ]);
    expect(log[1]).toMatchObject({ thinkingTimeMs: 12_000, elapsedHours: 0.17, stateAfter: { scheduler: "anki", intervalDays: 0.007 } });
    expect(log[0]).toMatchObject({ stateAfter: { scheduler: "anki", intervalDays: 10 } });
    const stats = (await learner.get("/api/stats?timezone=UTC")).body as { history: { date: string; count: number }[] };
    expect(stats.history.reduce((sum, day) => sum + day.count, 0)).toBe(2);
    const fit = await learner.post("/api/user/optimize-fsrs-parameters", {});
    expect(fit.body.errors.reviews).toBe("needs at least 400 logged reviews; you have 2 so far");
  });

  test("card states: suspended cards stay out of assimilation and recall, learning and buried cards are due as in Anki, FSRS state kept", async () => {
    const learner = await server.client().loginAs("old_learner");
    const me = (await learner.get("/api/user")).body;
    await learner.patch(`/api/user/${me.id}`, { name: me.name, scheduler: "fsrs" });
    const deck = spec("anki21b");
    const now = server.ctx.clock.now().getTime();
    const inHalfAnHour = Math.floor(now / 1000) + 1800;
    const today = 100;
    const basic = (id: number, title: string, card: Omit<FixtureNote["cards"][number], "id">): FixtureNote => ({
      id,
      type: "Basic",
      deck: "Science",
      fields: [title, "back"],
      cards: [{ id: id * 10, ...card }],
    });
    const extra = [
      basic(90, "Suspended new", { type: 0, queue: -1, due: 7 }),
      basic(91, "Suspended learning", { type: 1, queue: -1, due: inHalfAnHour, ivl: 0, reps: 1 }),
      basic(92, "Learning now", { type: 1, queue: 1, due: inHalfAnHour, ivl: 0, reps: 1 }),
      basic(93, "Buried review", { type: 2, queue: -2, due: today - 2, ivl: 4, reps: 3 }),
      basic(94, "Scheduled by FSRS", { type: 2, queue: 2, due: deck.reviewDue, ivl: 20, reps: 6, data: '{"s":25.5,"d":6.25,"dr":0.9}' }),
    ];
    const result = await importDeck(learner, await ankiPackage({ ...deck, notes: extra }, "anki21b"));
    expect(result.status).toBe(200);
    const trackerOf = async (title: string) => trackerOfNote((await noteTitled(title)).id);

    expect((await noteTitled("Suspended new")).skipMemoryTracking).toBe(true);
    expect(await trackerOf("Suspended new")).toBeUndefined();
    expect((await noteTitled("Suspended learning")).skipMemoryTracking).toBe(true);
    expect((await trackerOf("Suspended learning"))!.removedFromTracking).toBe(true);
    const assimilating = await assimilatingTitles(learner);
    expect(assimilating).toContain("le chat");
    expect(assimilating).not.toContain("Suspended new");
    expect(assimilating).not.toContain("Suspended learning");

    expect((await trackerOf("Learning now"))!.nextRecallAt).toEqual(new Date(inHalfAnHour * 1000));
    // Buried until Anki's next day: 4 am at UTC+10 after now.
    const dayStart = (n: number) =>
      Math.floor((deck.crt * 1000 + 600 * MINUTE_MS) / DAY_MS) * DAY_MS + n * DAY_MS + 4 * HOUR_MS - 600 * MINUTE_MS;
    let next = 0;
    while (dayStart(next) <= now) next++;
    expect((await trackerOf("Buried review"))!.nextRecallAt).toEqual(new Date(dayStart(next)));
    expect(await trackerOf("Scheduled by FSRS")).toMatchObject({ stability: 25.5, difficulty: 6.25, nextRecallAt: deck.expectedDue });
  });

  test("the note page shows an imported note's properties as a properties table, never as its first lines of text", async () => {
    const learner = await server.client().loginAs("old_learner");
    const result = await importDeck(learner, await ankiPackage(spec("anki21b"), "anki21b"));
    expect(result.status).toBe(200);
    const hola = await noteTitled("Hola");
    const page = await (
      await fetch(`${server.url}/n${hola.id}`, { headers: { cookie: `engram_session=${learner.sessionCookie}` } })
    ).text();
    // What the page shows (the data blocks for the islands aside).
    const html = page.replace(/<script[^>]*>[\s\S]*?<\/script>/g, "");
    expect(html).toContain('<th scope="row" dir="auto">anki_note_type</th><td dir="auto">Basic</td>');
    expect(html).toContain('<th scope="row" dir="auto">tags</th><td dir="auto">spanish, greeting</td>');
    // Before, the front matter rendered as a rule and a heading "anki_note_type: Basic tags: - spanish...".
    expect(html).not.toContain("anki_note_type: Basic");
    expect(html).not.toContain("<hr");
    expect(html).not.toContain("/assets/katex-");
    expect(html).toContain("<p>Hello</p>\n<p>Hi</p>");
  });

  test("sounds are not imported, and the report says so once per sound file; the notes keep their text", async () => {
    const learner = await server.client().loginAs("old_learner");
    const deck = spec("anki21b");
    const listen = (id: number, word: string): FixtureNote => ({
      id,
      type: "Basic",
      deck: "Science",
      fields: [word, `[sound:a.mp3] ${word} [sound:${word}.mp3]`],
      cards: [{ id: id * 10, type: 0, queue: 0, due: 1 }],
    });
    const result = await importDeck(learner, await ankiPackage({ ...deck, notes: [listen(95, "uno"), listen(96, "dos")] }, "anki21b"));
    expect(result.status).toBe(200);
    const reason = "a sound, not imported: Engram notes hold no audio (the note keeps its text)";
    expect(result.body.skipped).toEqual([
      { path: "a.mp3", reason: `${reason} (played by 3 notes)` },
      { path: "uno.mp3", reason },
      { path: "dos.mp3", reason },
    ]);
    expect((await noteTitled("uno")).details).toBe("---\nanki_note_type: Basic\n---\n\nuno");
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
