import { beforeEach, describe, expect, test } from "bun:test";
import { peekUndo, popUndo, pushUndo, resetUndoHistoryCache } from "../../islands/lib/undo-history";

describe("undo history (spec 4, undo)", () => {
  beforeEach(() => {
    sessionStorage.clear();
    resetUndoHistoryCache();
  });

  test("edits and deletes pop last in, first out", () => {
    pushUndo({ type: "edit title", noteId: 1, textContent: "Old title" });
    pushUndo({ type: "delete note", noteId: 2 });
    expect(popUndo()).toEqual({ type: "delete note", noteId: 2 });
    expect(popUndo()).toEqual({ type: "edit title", noteId: 1, textContent: "Old title" });
    expect(peekUndo()).toBeUndefined();
  });

  test("undo on an empty history raises 'undo history is empty'", () => {
    expect(() => popUndo()).toThrow("undo history is empty");
  });

  test("the history survives moving to another page in the same tab (sessionStorage)", () => {
    pushUndo({ type: "edit details", noteId: 3, textContent: "before" });
    resetUndoHistoryCache(); // a new page load reads the tab's storage again
    expect(peekUndo()).toEqual({ type: "edit details", noteId: 3, textContent: "before" });
  });
});
