import { describe, expect, test } from "bun:test";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { NoteTitle, noteTitleText } from "../../islands/lib/note-title";
import type { NoteTopologyJson } from "../../islands/lib/notes-queries";

const note = (id: number, title: string): NoteTopologyJson => ({ id, titleOrPredicate: title, shortDetails: "" });
const link = (subject?: NoteTopologyJson, object?: NoteTopologyJson): NoteTopologyJson => ({
  ...note(3, "a part of"),
  linkType: "a part of",
  ...(subject ? { parentOrSubjectNoteTopology: subject } : {}),
  ...(object ? { objectNoteTopology: object } : {}),
});
const text = (topology: NoteTopologyJson, linkEnds = false) =>
  renderToStaticMarkup(createElement(NoteTitle, { topology, linkEnds })).replace(/<[^>]+>/g, "");

describe("a note's name where it is listed or asked", () => {
  test.each([
    ["a note", note(1, "Moon"), "Moon"],
    ["a note under others", { ...note(1, "Moon"), parentOrSubjectNoteTopology: note(9, "Astronomy") }, "Moon"],
    ["a link note", link(note(1, "Moon"), note(2, "Sun")), "Moon — a part of — Sun"],
    ["a link note without its subject", link(undefined, note(2, "Sun")), "a part of — Sun"],
    ["a link note without its object", link(note(1, "Moon")), "Moon — a part of"],
  ])("%s", (_, topology, expected) => {
    expect(noteTitleText(topology)).toBe(expected);
    // The markup reads the same, with or without links on the ends.
    expect(text(topology)).toBe(expected);
    expect(text(topology, true)).toBe(expected);
  });

  test("with linkEnds the subject and object link to their notes, the link type stands apart", () => {
    const html = renderToStaticMarkup(createElement(NoteTitle, { topology: link(note(1, "Moon"), note(2, "Sun")), linkEnds: true }));
    // Each end isolated (dir="auto"), so a right-to-left title does not reorder the sentence.
    expect(html).toBe('<a href="/n1" dir="auto">Moon</a> — <span class="link-type">a part of</span> — <a href="/n2" dir="auto">Sun</a>');
  });
});
