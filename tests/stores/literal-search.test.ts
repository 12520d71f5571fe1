/**
 * Literal search on both databases (FTS5 and LIKE on SQLite, pg_trgm and ILIKE on PostgreSQL):
 * the same notes found, in the same order, at the same distances, for keys of one, two and more
 * characters, in any case, with LIKE's own characters, deleted, link and out-of-scope notes never.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { openDatabase } from "../../src/db/connection";
import { DETAILS_HEAD_LENGTH, type SearchScope } from "../../src/store/search/literal-ranking";
import { all, run, type Session, type Step } from "../../src/store/session";
import { databaseUnderTestOfFile, postgresTestUrl } from "../support/database-under-test";
import { notebook, user } from "./seed";

const under = databaseUnderTestOfFile();
const write = <T>(body: (s: Session) => Step<T>) => under.database.write(body);

const NOTES: [title: string, details: string][] = [
  ["Paris", "Capital of France"],
  ["paris", ""],
  ["Parisian cafés", "Coffee in Paris"],
  ["École primaire", "Une école à Paris"],
  ["Go", "A programming language"],
  ["Gopher", "The Go mascot"],
  ["Algorithms", "go to the paris library"],
  ["100% sure", "certain"],
  ["1000 words", "a picture"],
  ["  paris  ", "spaces around"],
  ["Straßenbahn", "tram in Munich"],
];

let scope: SearchScope;
/** A notebook of 35 titles "Term 1" ... "Term 35" (more than a page), and "TERMS" in another case. */
let manyScope: SearchScope;
const ids = new Map<number, string>();

beforeAll(async () => {
  await write(function* (s) {
    const ann = yield* user(s, "search-ann");
    const book = yield* notebook(s, ann.userId, "Search book");
    const other = yield* notebook(s, ann.userId, "Elsewhere");
    const n = s.t.notes;
    const insert = function* (notebookId: number, title: string, details: string, extra: Partial<typeof n.$inferInsert> = {}) {
      const [row] = yield* all(
        s,
        s.db
          .insert(n)
          .values({
            notebookId,
            parentId: null,
            title,
            details,
            siblingOrder: 1024,
            createdAt: new Date(0),
            updatedAt: new Date(0),
            ...extra,
          })
          .returning({ id: n.id }),
      );
      ids.set(row!.id, title);
      return row!.id;
    };
    const found: number[] = [];
    for (const [title, details] of NOTES) found.push(yield* insert(book.notebookId, title, details));
    // Never found: a deleted note, a link note, a note of a notebook out of the scope.
    const deleted = yield* insert(book.notebookId, "Paris deleted", "paris");
    yield* run(
      s,
      s.db
        .update(n)
        .set({ deletedAt: new Date(1) })
        .where(eq(n.id, deleted)),
    );
    yield* insert(book.notebookId, "Paris link", "paris", { targetNoteId: found[0]! });
    yield* insert(other.notebookId, "Paris elsewhere", "paris");
    ids.set(book.headNoteId, "Search book");
    scope = { notebookIds: [book.notebookId] };
    const many = yield* notebook(s, ann.userId, "Many");
    ids.set(many.headNoteId, "Many");
    for (let k = 35; k >= 1; k--)
      yield* insert(many.notebookId, `Term ${k}`, k % 3 === 0 ? "term term term" : k % 3 === 1 ? "" : "a long text about terms");
    yield* insert(many.notebookId, "TERMS", "");
    manyScope = { notebookIds: [many.notebookId, other.notebookId] };
  });
});

/** The hits as [title, distance to 6 places]. */
async function search(key: string, excludeNoteId?: number) {
  const hits = await under.stores.search.literal({ ...scope, ...(excludeNoteId && { excludeNoteId }) }, key);
  return hits.map((hit) => [ids.get(hit.noteId), Number(hit.distance.toFixed(6))]);
}

async function searchMany(key: string) {
  const hits = await under.stores.search.literal(manyScope, key);
  return hits.map((hit) => [ids.get(hit.noteId), Number(hit.distance.toFixed(6))]);
}

/** "Term k" for each k, in order. */
const terms = (...ks: number[]) => ks.map((k) => `Term ${k}`);
const range = (from: number, to: number) => Array.from({ length: Math.abs(to - from) + 1 }, (_, i) => (from < to ? from + i : from - i));

describe("literal search", () => {
  test("one character: titles starting with it first, then titles and details holding it", async () => {
    expect(await search("p")).toEqual([
      ["Paris", 0.199],
      ["paris", 0.199],
      ["Parisian cafés", 0.199],
      ["Gopher", 0.199],
      ["  paris  ", 0.199],
      ["École primaire", 0.199],
      ["Go", 0.399],
      ["Algorithms", 0.399],
      ["1000 words", 0.399],
    ]);
  });

  test("two characters: the exact title first; LIKE's own characters are plain text", async () => {
    expect(await search("go")).toEqual([
      ["Go", 0],
      ["Gopher", 0.199],
      ["Algorithms", 0.199],
    ]);
    expect(await search("o%")).toEqual([]);
    expect(await search("_")).toEqual([]);
    expect(await search("a b")).toEqual([
      ["Search book", 0.199],
      ["Straßenbahn", 0.199],
      ["Algorithms", 0.399],
    ]);
  });

  test("longer keys in any case: exact titles (spaces around ignored), then titles by relevance, then details", async () => {
    expect(await search("PARIS")).toEqual([
      ["Paris", 0],
      ["paris", 0],
      ["  paris  ", 0],
      ["Parisian cafés", 0.134614],
      ["École primaire", 0.349182],
      ["Algorithms", 0.349814],
    ]);
    expect(await search("paris café")).toEqual([["Parisian cafés", 0.120087]]);
    expect(await search("go paris")).toEqual([["Algorithms", 0.324852]]);
    expect(await search("100%")).toEqual([["100% sure", 0.133398]]);
  });

  test("accented letters match in either case, but not without their accents", async () => {
    expect(await search("ÉCOLE")).toEqual([["École primaire", 0.133398]]);
    expect(await search("straße")).toEqual([["Straßenbahn", 0.133398]]);
    expect(await search("ecole")).toEqual([]);
  });

  test("the excluded note, deleted notes, link notes and other notebooks are never found", async () => {
    const paris = [...ids].find(([, title]) => title === "Paris")![0];
    expect((await search("paris", paris)).map(([title]) => title)).toEqual([
      "paris",
      "  paris  ",
      "Parisian cafés",
      "École primaire",
      "Algorithms",
    ]);
    expect(await searchMany("PARIS")).toEqual([["Paris elsewhere", 0.133398]]);
  });

  test("more than a page: the same page, in the same order, on both databases", async () => {
    // One short word: the first page of titles starting with it in the title index's order (NOCASE).
    const prefixPage = terms(4, 3, 2, 1, ...range(35, 10));
    for (const key of ["te", "TE"]) {
      const hits = await searchMany(key);
      expect(hits.map(([title]) => title)).toEqual(prefixPage);
      expect(new Set(hits.map(([, distance]) => distance))).toEqual(new Set([0.199]));
    }
    // Titles alone fill the page: ranked by relevance (shorter titles weigh more), then id.
    const byRelevance = await searchMany("term");
    expect(byRelevance.map(([title]) => title)).toEqual(["TERMS", ...terms(...range(9, 1), ...range(35, 16))]);
    expect(byRelevance.slice(0, 3)).toEqual([
      ["TERMS", 0.132944],
      ["Term 9", 0.133213],
      ["Term 8", 0.133213],
    ]);
    expect(byRelevance.at(-1)).toEqual(["Term 16", 0.133479]);
    const withShortWord = await searchMany("term 1");
    expect(withShortWord.map(([title]) => title)).toEqual(terms(1, 11, 31, 21, ...range(19, 12), 10));
    expect(withShortWord.slice(0, 3)).toEqual([
      ["Term 1", 0],
      ["Term 11", 0.119654],
      ["Term 31", 0.120101],
    ]);
    // Two short words, found in the details only.
    expect((await searchMany("a b")).map(([title]) => title)).toEqual(terms(8, 5, 2, 35, 32, 29, 26, 23, 20, 17, 14, 11));
  });

  test.skipIf(Boolean(postgresTestUrl()))(
    "on SQLite the title index holds the head of the details a title hit presents, so a page of hits reads no note row",
    () => {
      const { sqlite } = openDatabase(":memory:");
      const index = sqlite.query<{ sql: string }, []>("SELECT sql FROM sqlite_master WHERE name = 'notes_searchable_title'").get();
      // The search selects substr(details, 1, DETAILS_HEAD_LENGTH): only the same expression is read from the index.
      expect(index?.sql).toContain(`substr(\`details\`, 1, ${DETAILS_HEAD_LENGTH})`);
      const notesPage = sqlite.query<{ rootpage: number }, []>("SELECT rootpage FROM sqlite_master WHERE name = 'notes'").get()!.rootpage;
      const program = sqlite
        .query<{ opcode: string; p1: number; p2: number }, []>(
          `EXPLAIN SELECT "notes"."id", "notes"."title", substr("notes"."details", 1, ${DETAILS_HEAD_LENGTH}) FROM "notes"
           INDEXED BY notes_searchable_title WHERE "notes"."notebook_id" IN (1, 2) AND "notes"."deleted_at" IS NULL
           AND "notes"."target_note_id" IS NULL AND "notes"."title" >= 'ab' COLLATE NOCASE AND "notes"."title" < 'ac' COLLATE NOCASE LIMIT 30`,
        )
        .all();
      const tableCursor = program.find((op) => op.opcode === "OpenRead" && op.p2 === notesPage)?.p1;
      const columnsRead = program.filter((op) => op.opcode === "Column");
      expect(columnsRead.length).toBeGreaterThan(0);
      // Every column comes from the index's cursor: no row of the notes table is read.
      expect(columnsRead.filter((op) => op.p1 === tableCursor)).toEqual([]);
      sqlite.close();
    },
  );
});
