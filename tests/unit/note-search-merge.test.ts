import { describe, expect, test } from "bun:test";
import { formatDistance, mergeSearchResults, type NoteSearchResultJson } from "../../islands/lib/note-search/merge";

const result = (id: number, distance: number, title = `Note ${id}`): NoteSearchResultJson => ({
  noteTopology: { id, titleOrPredicate: title, shortDetails: "" },
  distance,
});
const summary = (results: NoteSearchResultJson[]) => results.map((r) => [r.noteTopology.id, r.distance]);

describe("merging search results", () => {
  test("one entry per note, with the smaller of its distances", () => {
    const literal = [result(1, 0), result(2, 0.35), result(3, 0.15)];
    const semantic = [result(2, 0.2), result(4, 0.5), result(1, 0.4)];
    expect(summary(mergeSearchResults(literal, semantic))).toEqual([
      [1, 0],
      [3, 0.15],
      [2, 0.2],
      [4, 0.5],
    ]);
  });

  test("sorted by distance ascending whatever the order of the lists", () => {
    const a = [result(5, 0.9), result(6, 0.1)];
    const b = [result(7, 0.5)];
    expect(summary(mergeSearchResults(a, b))).toEqual(summary(mergeSearchResults(b, a)));
    expect(summary(mergeSearchResults(a, b))).toEqual([
      [6, 0.1],
      [7, 0.5],
      [5, 0.9],
    ]);
  });

  test("equal distances keep the order in which the notes first appear", () => {
    expect(summary(mergeSearchResults([result(3, 0.2), result(1, 0.2)], [result(2, 0.2)]))).toEqual([
      [3, 0.2],
      [1, 0.2],
      [2, 0.2],
    ]);
  });

  test("empty lists merge to nothing", () => {
    expect(mergeSearchResults([], [])).toEqual([]);
  });

  test("distances are shown to 3 decimals", () => {
    expect(formatDistance(0)).toBe("0.000");
    expect(formatDistance(0.19876)).toBe("0.199");
    expect(formatDistance(0.3)).toBe("0.300");
  });
});
