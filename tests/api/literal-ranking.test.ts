/**
 * Literal search through the title index (notes_title_fts) and then the details
 * (notes_fts), ranked here by relevance rather than by FTS5's bm25(): the answers are exactly those
 * of a plain reference search over the same notes (every word in the title, or else each word in
 * the title or the details; exact title, then titles, then details; by relevance, shorter title,
 * id), the title index follows renames and deletions, and a key in more details than are ranked
 * here is still answered, more mentions first.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { DETAILS_RANKED_HERE, relevance, SEARCH_LIMIT } from "../../src/services/search/literal";
import { injectNotes } from "../support/notes";
import { type HttpClient, useTestServer } from "../support/server";

interface Hit {
  noteTopology: { id: number; titleOrPredicate: string };
  distance: number;
}

async function search(client: HttpClient, searchKey: string): Promise<Hit[]> {
  const result = await client.post<Hit[]>("/api/notes/search", { searchKey, allMyNotebooksAndSubscriptions: true, allMyCircles: false });
  expect(result.status).toBe(200);
  return result.body;
}

interface Note {
  id: number;
  title: string;
  details: string;
}

/** One ranked group of the reference search: by relevance (averaged over the group), shorter title, id. */
function ranked(notes: Note[], words: string[], tierOf: (note: Note) => number, text: (note: Note) => Note): Note[] {
  const lengths = notes.map((note) => text(note).title.length + text(note).details.length);
  const average = lengths.reduce((sum, length) => sum + length, 0) / (notes.length || 1);
  return notes
    .map((note, i) => ({ note, tier: tierOf(note), score: relevance(text(note), words, lengths[i]! / (average || 1)) }))
    .sort((a, b) => a.tier - b.tier || b.score - a.score || a.note.title.length - b.note.title.length || a.note.id - b.note.id)
    .map(({ note }) => note);
}

/** The search as documented, over every note in plain JavaScript (keys of words of 3 or more ASCII letters). */
function referenceSearch(notes: Note[], key: string): number[] {
  const words = [...new Set(key.trim().toLowerCase().split(/\s+/))];
  const has = (text: string, word: string) => text.toLowerCase().includes(word);
  const titleMatches = notes.filter((note) => words.every((word) => has(note.title, word)));
  const titles = ranked(
    titleMatches,
    words,
    (note) => (note.title.trim().toLowerCase() === key.trim().toLowerCase() ? 0 : 1),
    (note) => ({ ...note, details: "" }),
  ).slice(0, SEARCH_LIMIT);
  if (titles.length >= SEARCH_LIMIT) return titles.map((note) => note.id);
  const listed = new Set(titles.map((note) => note.id));
  const detailMatches = notes.filter(
    (note) => !listed.has(note.id) && words.every((word) => has(note.title, word) || has(note.details, word)),
  );
  const details = ranked(
    detailMatches,
    words,
    () => 2,
    (note) => note,
  );
  return [...titles, ...details].slice(0, SEARCH_LIMIT).map((note) => note.id);
}

const VOCABULARY = ["alpha", "Beta", "gamma", "delta", "omega", "SIGMA", "kappa", "theta", "alphabet", "metal"];

describe("literal search through the title and details indexes", () => {
  const server = useTestServer();

  test("answers exactly what the reference search answers, in the same order", async () => {
    const learner = await server.client().loginAs("old_learner");
    const other = await server.client().loginAs("another_old_learner");
    await injectNotes(other, [{ Title: "alpha beta of theirs", Details: "gamma delta" }]);
    // 150 notes of 1–3 title words and 0–12 details words from a small vocabulary (so titles
    // sometimes fill the page and sometimes do not), plus a deleted one that is never found.
    const word = fc.constantFrom(...VOCABULARY);
    const rows = fc
      .sample(fc.record({ title: fc.array(word, { minLength: 1, maxLength: 3 }), details: fc.array(word, { maxLength: 12 }) }), {
        numRuns: 150,
        seed: 16,
      })
      .map((row, i) => ({ Title: `${row.title.join(" ")} n${i}`, Details: row.details.join(" "), "Parent Title": "Root" }));
    const ids = await injectNotes(learner, [
      { Title: "Root" },
      ...rows,
      { Title: "alpha gamma deleted", "Parent Title": "Root", Details: "beta" },
    ]);
    expect((await learner.post(`/api/notes/${ids["alpha gamma deleted"]}/delete`)).status).toBe(200);
    const notes: Note[] = [
      { id: ids.Root!, title: "Root", details: "" },
      ...rows.map((row) => ({ id: ids[row.Title]!, title: row.Title, details: row.Details })),
    ];

    // Keys: one or two words or fragments of 3+ letters, in any case; an exact title now and then.
    const fragment = word.chain((w) =>
      fc
        .integer({ min: 0, max: w.length - 3 })
        .chain((start) => fc.integer({ min: start + 3, max: w.length }).map((end) => w.slice(start, end))),
    );
    const anyCase = (text: string) => fc.boolean().map((upper) => (upper ? text.toUpperCase() : text));
    const key = fc.oneof(
      fc
        .array(fc.oneof(word, fragment), { minLength: 1, maxLength: 2 })
        .map((words) => words.join(" "))
        .chain(anyCase),
      fc.constantFrom(...rows.slice(0, 5).map((row) => row.Title)),
    );
    await fc.assert(
      fc.asyncProperty(key, async (searchKey) => {
        const hits = await search(learner, searchKey);
        expect(hits.map((hit) => hit.noteTopology.id)).toEqual(referenceSearch(notes, searchKey));
        const distances = hits.map((hit) => hit.distance);
        expect(distances).toEqual([...distances].sort((a, b) => a - b));
      }),
      { numRuns: 80, seed: 1604 },
    );
  });

  test("the title index follows renames and deletions", async () => {
    const learner = await server.client().loginAs("old_learner");
    const ids = await injectNotes(learner, [
      { Title: "Marsupials" },
      { Title: "Quokka facts", "Parent Title": "Marsupials", Details: "Small and cheerful" },
      { Title: "Numbat facts", "Parent Title": "Marsupials", Details: "Eats termites" },
    ]);
    const found = async (key: string) =>
      (await search(learner, key)).map((hit) => [hit.noteTopology.titleOrPredicate, hit.distance < 0.2 ? "title" : "details"]);
    expect(await found("quokka")).toEqual([["Quokka facts", "title"]]);

    expect((await learner.patch(`/api/text_content/${ids["Quokka facts"]}/title`, { newTitle: "Wombat facts" })).status).toBe(200);
    expect(await found("quokka")).toEqual([]);
    expect(await found("wombat")).toEqual([["Wombat facts", "title"]]);

    expect((await learner.post(`/api/notes/${ids["Numbat facts"]}/delete`)).status).toBe(200);
    expect(await found("numbat")).toEqual([]);
    expect(await found("facts")).toEqual([["Wombat facts", "title"]]);
  });

  test(`a key in the details of more than ${DETAILS_RANKED_HERE} notes and in no title: a page of them, more mentions first`, async () => {
    const learner = await server.client().loginAs("old_learner");
    const rows: { Title: string; Details: string; "Parent Title": string }[] = [];
    for (let i = 0; i < DETAILS_RANKED_HERE + 5; i++)
      rows.push({ Title: `Note ${1000 + i}`, Details: "zebra mouse mouse", "Parent Title": "Herd" });
    for (let i = 0; i < 5; i++) rows.push({ Title: `Best ${1000 + i}`, Details: "zebra zebra zebra", "Parent Title": "Herd" });
    const ids = await injectNotes(learner, [{ Title: "Herd" }, ...rows]);

    const hits = await search(learner, "zebra");
    expect(hits).toHaveLength(SEARCH_LIMIT);
    expect(
      hits
        .slice(0, 5)
        .map((hit) => hit.noteTopology.id)
        .sort(),
    ).toEqual(
      rows
        .slice(-5)
        .map((row) => ids[row.Title]!)
        .sort(),
    );
    for (const hit of hits) expect(hit.distance).toBeGreaterThanOrEqual(0.3);
    expect(hits[4]!.distance).toBeLessThan(hits[5]!.distance);
  });
});
