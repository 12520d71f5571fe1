import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { spreadSameNote } from "../../src/services/memory/spread-same-note";

/** Items written as their notes' letters, each numbered so that moves can be seen: "A B A" → A1 B2 A3. */
const items = (notes: string) => notes.split(" ").map((note, i) => ({ noteId: note.charCodeAt(0), id: `${note}${i + 1}` }));
const ids = (list: { id: string }[]) => list.map((item) => item.id).join(" ");

describe("spreadSameNote", () => {
  test.each([
    ["", ""],
    ["A", "A1"],
    ["A B C", "A1 B2 C3"],
    ["A B A B", "A1 B2 A3 B4"],
    // A note's simple review and its spelling question are parted by the next note.
    ["A A B", "A1 B3 A2"],
    ["A A B C", "A1 B3 A2 C4"],
    ["B A A C", "B1 A2 C4 A3"],
    // The majority note must take the ends: B and C step in between.
    ["B C A A A", "A3 B1 A4 C2 A5"],
    // Cannot be avoided: the order stays.
    ["A A", "A1 A2"],
    ["A A A B", "A1 B4 A2 A3"],
  ])("%p becomes %p", (input, expected) => {
    expect(ids(spreadSameNote(input === "" ? [] : items(input)))).toBe(expected);
  });

  test("a list without neighbours of the same note keeps its order", () => {
    // Each step moves to another of six notes, so no two neighbours share one.
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 5 }), { maxLength: 30 }), (steps) => {
        let noteId = 0;
        const list = steps.map((step, i) => {
          noteId = (noteId + step) % 6;
          return { noteId, i };
        });
        expect(spreadSameNote(list)).toEqual(list);
      }),
    );
  });

  test("a permutation with no neighbours of the same note whenever no note has more than half the items (rounded up)", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 5 }), { maxLength: 40 }), (notes) => {
        const list = notes.map((noteId, i) => ({ noteId, i }));
        const spread = spreadSameNote(list);
        expect([...spread].sort((a, b) => a.i - b.i)).toEqual(list);
        const most = Math.max(0, ...[...new Set(notes)].map((note) => notes.filter((n) => n === note).length));
        if (most <= Math.ceil(notes.length / 2)) {
          for (let i = 1; i < spread.length; i++) expect(spread[i]!.noteId).not.toBe(spread[i - 1]!.noteId);
        }
      }),
      { numRuns: 500 },
    );
  });
});
