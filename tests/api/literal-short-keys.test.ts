/**
 * Literal search with a one- or two-character key: titles starting with it come from the
 * (notebook, title) index and end the search once they fill a page; with fewer, the other titles
 * and the details that contain it follow. Never another user's or a deleted note.
 */
import { describe, expect, test } from "bun:test";
import { prefixUpperBound, SEARCH_LIMIT } from "../../src/services/search/literal";
import { injectNotes } from "../support/notes";
import { type HttpClient, useTestServer } from "../support/server";

interface Hit {
  noteTopology: { id: number; titleOrPredicate: string; shortDetails?: string };
  distance: number;
}

async function search(client: HttpClient, searchKey: string): Promise<string[]> {
  const result = await client.post<Hit[]>("/api/notes/search", { searchKey, allMyNotebooksAndSubscriptions: true, allMyCircles: false });
  expect(result.status).toBe(200);
  return result.body.map((hit) => hit.noteTopology.titleOrPredicate);
}

describe("prefixUpperBound", () => {
  test("is the prefix with its last character raised, ASCII letters in lower case", () => {
    expect(prefixUpperBound("ka")).toBe("kb");
    expect(prefixUpperBound("KZ")).toBe("k{");
    expect(prefixUpperBound("é")).toBe("ê");
    expect(prefixUpperBound("a😀")).toBe("a😁");
  });
});

describe("literal search with a short key", () => {
  const server = useTestServer();

  test("a page of titles starting with the key: the exact title first, then the shorter titles; no other user's notes", async () => {
    const learner = await server.client().loginAs("old_learner");
    const other = await server.client().loginAs("another_old_learner");
    await injectNotes(other, [{ Title: "Ka" }, { Title: "Kayak of theirs" }]);
    const rows: { Title: string; "Parent Title"?: string; Details?: string }[] = [
      { Title: "Words" },
      { Title: "Ka", "Parent Title": "Words" },
      { Title: "Deleted ka", "Parent Title": "Words" },
    ];
    for (let i = 0; i < SEARCH_LIMIT + 10; i++) rows.push({ Title: `Kangaroo ${"x".repeat(i % 7)} ${i}`, "Parent Title": "Words" });
    rows.push({ Title: "A bookay", "Parent Title": "Words", Details: "ka inside" });
    const ids = await injectNotes(learner, rows);
    await learner.post(`/api/notes/${ids["Deleted ka"]}/delete`);

    const found = await search(learner, "KA");
    expect(found).toHaveLength(SEARCH_LIMIT);
    expect(found[0]).toBe("Ka");
    for (const title of found) expect(title.toLowerCase().startsWith("ka")).toBe(true);
    const lengths = found.slice(1).map((title) => title.length);
    expect(lengths).toEqual([...lengths].sort((a, b) => a - b));
    expect(found).not.toContain("Kayak of theirs");
  });

  test("with fewer titles starting with it, titles containing it and then details follow", async () => {
    const learner = await server.client().loginAs("old_learner");
    await injectNotes(learner, [
      { Title: "Animals" },
      { Title: "Ox", "Parent Title": "Animals" },
      { Title: "Oxen team", "Parent Title": "Animals" },
      { Title: "Box turtle", "Parent Title": "Animals" },
      { Title: "Cow", "Parent Title": "Animals", Details: "Related to the ox" },
      { Title: "Horse", "Parent Title": "Animals", Details: "Nothing here" },
    ]);
    expect(await search(learner, "ox")).toEqual(["Ox", "Oxen team", "Box turtle", "Cow"]);
    expect(await search(learner, "x")).toEqual(["Ox", "Oxen team", "Box turtle", "Cow"]);
  });
});

describe("literal search with a 1- or 2-character key, titles and details", () => {
  const server = useTestServer();

  test("finds the key in any case in titles, then in details, and only in the reader's undeleted notes", async () => {
    const learner = await server.client().loginAs("old_learner");
    const other = await server.client().loginAs("another_old_learner");
    await injectNotes(other, [{ Title: "Qz of theirs", Details: "qz" }]);
    const ids = await injectNotes(learner, [
      { Title: "Letters" },
      { Title: "QZ", "Parent Title": "Letters" },
      { Title: "Aqz inside", "Parent Title": "Letters" },
      { Title: "Plain", "Parent Title": "Letters", Details: "Somewhere a qZ hides" },
      { Title: "Gone qz", "Parent Title": "Letters", Details: "QZ" },
      { Title: "Nothing", "Parent Title": "Letters", Details: "no match" },
    ]);
    await learner.post(`/api/notes/${ids["Gone qz"]}/delete`);

    expect(await search(learner, "qz")).toEqual(["QZ", "Aqz inside", "Plain"]);
    expect(await search(learner, "Qz")).toEqual(["QZ", "Aqz inside", "Plain"]);
    expect(await search(learner, "Z")).toEqual(["QZ", "Aqz inside", "Plain"]);
    expect(await search(other, "qz")).toEqual(["Qz of theirs"]);
  });
});

describe("literal search with a short key, from a note and around the title index", () => {
  const server = useTestServer();

  async function searchFrom(client: HttpClient, note: number, searchKey: string) {
    const result = await client.post<Hit[]>(`/api/notes/${note}/search`, {
      searchKey,
      allMyNotebooksAndSubscriptions: false,
      allMyCircles: false,
    });
    expect(result.status).toBe(200);
    return result.body;
  }

  test("a note's search leaves the note itself out, and a title equal to the key but for spaces and case ranks first", async () => {
    const learner = await server.client().loginAs("old_learner");
    const ids = await injectNotes(learner, [
      { Title: "Words" },
      { Title: "Kayak", "Parent Title": "Words", Details: "A boat" },
      { Title: "Kayaks", "Parent Title": "Words" },
      { Title: "KA  ", "Parent Title": "Words", Details: "**Bold** start" },
      { Title: "Ka", "Parent Title": "Words" },
    ]);
    const hits = await searchFrom(learner, ids.Ka!, "ka");
    expect(hits.map((hit) => hit.noteTopology.titleOrPredicate)).toEqual(["KA  ", "Kayak", "Kayaks"]);
    expect(hits[0]!.distance).toBe(0);
    expect(hits[1]!.distance).toBeGreaterThan(0);
    // The topology as every search answers it: id, title, short details in plain text.
    expect(hits[0]!.noteTopology).toEqual({ id: ids["KA  "]!, titleOrPredicate: "KA  ", shortDetails: "Bold start" });
  });

  test("a page of titles starting with the key stays full when the note itself is left out, and the global search's page after it", async () => {
    const learner = await server.client().loginAs("old_learner");
    const ids = await injectNotes(learner, [
      { Title: "Shelf" },
      ...Array.from({ length: 35 }, (_, i) => ({ Title: `Qv ${String(i).padStart(2, "0")}`, "Parent Title": "Shelf" })),
    ]);
    const expected = Array.from({ length: 31 }, (_, i) => `Qv ${String(i).padStart(2, "0")}`);
    const fromNote = await searchFrom(learner, ids["Qv 00"]!, "qv");
    expect(fromNote.map((hit) => hit.noteTopology.titleOrPredicate)).toEqual(expected.slice(1));
    const global = await learner.post<Hit[]>("/api/notes/search", { searchKey: "qv", allMyNotebooksAndSubscriptions: true });
    expect(global.body.map((hit) => hit.noteTopology.titleOrPredicate)).toEqual(expected.slice(0, 30));
  });

  test("long details give the same short details as anywhere else, Markdown or not", async () => {
    const learner = await server.client().loginAs("old_learner");
    const plain = `Plain words ${"and more plain words ".repeat(500)}`;
    const marked = `**Bold** start, then [a link](http://x) ${"and more words ".repeat(500)}`;
    const spaced = `${"w".repeat(50)} ${"tail ".repeat(20)}`;
    const ids = await injectNotes(learner, [
      { Title: "Pages" },
      { Title: "Jq plain", "Parent Title": "Pages", Details: plain },
      { Title: "Jq marked", "Parent Title": "Pages", Details: marked },
      { Title: "Jq spaced", "Parent Title": "Pages", Details: spaced },
    ]);
    const hits = await searchFrom(learner, ids.Pages!, "jq");
    const short: Record<string, string | undefined> = Object.fromEntries(
      hits.map((hit) => [hit.noteTopology.titleOrPredicate, hit.noteTopology.shortDetails]),
    );
    expect(short).toEqual({
      "Jq plain": `${plain.slice(0, 50)}...`,
      "Jq marked": "Bold start, then a link and more words and more wo...",
      "Jq spaced": `${"w".repeat(50)}...`,
    });
    for (const title of ["Jq plain", "Jq marked", "Jq spaced"] as const) {
      const note = await learner.get<{ note: { noteTopology: { shortDetails: string } } }>(`/api/notes/${ids[title]}`);
      expect(note.body.note.noteTopology.shortDetails).toBe(short[title]!);
    }
  });

  test("a link note is never found, and a restored note is found again", async () => {
    const learner = await server.client().loginAs("old_learner");
    const ids = await injectNotes(learner, [
      { Title: "Words" },
      { Title: "Kiwi", "Parent Title": "Words" },
      { Title: "Koala", "Parent Title": "Words" },
    ]);
    const link = await learner.post(`/api/links/create/${ids.Kiwi}/${ids.Koala}`, { linkType: "related to" });
    expect(link.status).toBe(200);
    expect(await search(learner, "re")).toEqual([]);
    await learner.post(`/api/notes/${ids.Kiwi}/delete`);
    expect(await search(learner, "ki")).toEqual([]);
    expect((await learner.patch(`/api/notes/${ids.Kiwi}/undo-delete`)).status).toBe(200);
    expect(await search(learner, "ki")).toEqual(["Kiwi"]);
  });
});
