/**
 * Issue 16, literal search with a one- or two-character key: titles starting with it come from the
 * (notebook, title) index and end the search once they fill a page; with fewer, the other titles
 * and the details that contain it follow. Never another user's or a deleted note.
 */
import { describe, expect, test } from "bun:test";
import { SEARCH_LIMIT, prefixUpperBound } from "../../src/services/search/literal";
import { injectNotes } from "../support/notes";
import { type HttpClient, useTestServer } from "../support/server";

interface Hit {
  noteTopology: { id: number; titleOrPredicate: string };
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
    const rows: { Title: string; "Parent Title"?: string; Details?: string }[] = [{ Title: "Words" }, { Title: "Ka", "Parent Title": "Words" }, { Title: "Deleted ka", "Parent Title": "Words" }];
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
