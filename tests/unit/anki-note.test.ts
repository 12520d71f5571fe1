import { describe, expect, test } from "bun:test";
import { clozeAnswer, clozeDeletions, clozeQuestion } from "../../src/services/vaults/anki-cloze";
import { ankiNoteText, shortenedTitle } from "../../src/services/vaults/anki-note";

const basic = { name: "Basic", fields: ["Front", "Back"], cloze: false };
const cloze = { name: "Cloze", fields: ["Text", "Back Extra"], cloze: true };

describe("Anki cloze deletions", () => {
  test("the card's question blanks its deletions, with the hint when there is one; other numbers read as text", () => {
    const html = "{{c1::Paris::city}} is the capital of {{c2::France}}, on the {{c1::Seine}}";
    expect(clozeQuestion(html, 1)).toBe("[city] is the capital of France, on the [...]");
    expect(clozeQuestion(html, 2)).toBe("Paris is the capital of [...], on the Seine");
    expect(clozeAnswer(html)).toBe("Paris is the capital of France, on the Seine");
    expect(clozeDeletions(html, 1)).toEqual(["Paris", "Seine"]);
  });

  test("nested deletions, HTML inside, and markers that never close", () => {
    const nested = "{{c1::a {{c2::b}} c}} d";
    expect(clozeQuestion(nested, 1)).toBe("[...] d");
    expect(clozeQuestion(nested, 2)).toBe("a [...] c d");
    expect(clozeDeletions(nested, 1)).toEqual(["a b c"]);
    expect(clozeAnswer("{{c1::<b>bold</b>}} x")).toBe("<b>bold</b> x");
    expect(clozeAnswer("{{c1::open and :: text")).toBe("{{c1::open and :: text");
  });
});

describe("an Anki note as an Engram note", () => {
  test("a first field longer than a title is shortened at a word, and kept whole in the details", () => {
    const long = `${"word ".repeat(40)}and the end`;
    expect(shortenedTitle(long).length).toBeLessThanOrEqual(150);
    expect(shortenedTitle(long)).toEndWith("word…");
    const note = ankiNoteText(basic, [long, "the back"], []);
    expect(note.title).toBe(shortenedTitle(long));
    expect(note.details).toBe(`---\nanki_note_type: Basic\n---\n\n**Front**\n\n${long.trim()}\n\n**Back**\n\nthe back`);
    expect(ankiNoteText(basic, ["short", "the back"], ["a"]).details).toBe("---\nanki_note_type: Basic\ntags:\n  - a\n---\n\nthe back");
  });

  test("a cloze note: the question as title, the full text in the details, the answer as a property", () => {
    const note = ankiNoteText(cloze, ["Un poco {{c1::de::of}} agua", "Partitive"], ["spanish"]);
    expect(note.title).toBe("Un poco [of] agua");
    expect(note.clozeAnswer).toBe("de");
    expect(note.details).toBe(
      "---\nanki_note_type: Cloze\ncloze_answer: de\ntags:\n  - spanish\n---\n\n**Text**\n\nUn poco de agua\n\n**Back Extra**\n\nPartitive",
    );
  });

  test("a cloze note's card of number 2 asks for its own deletions; an answer past the title's length is kept", () => {
    const second = ankiNoteText(cloze, ["{{c1::Paris}} is the capital of {{c2::France}}", ""], [], 1);
    expect(second.title).toBe("Paris is the capital of [...]");
    expect(second.clozeAnswer).toBe("France");
    const long = ankiNoteText(cloze, [`${"Long text. ".repeat(20)}The answer is {{c1::forty-two}}.`, ""], []);
    expect(long.title).toEndWith("…");
    expect(long.title).not.toContain("forty-two");
    expect(long.details).toContain("The answer is forty-two.");
    expect(long.clozeAnswer).toBe("forty-two");
  });

  test("cloze markup in a note type that is not Cloze stays as written", () => {
    expect(ankiNoteText(basic, ["{{c1::x}}", "y"], []).title).toBe("{{c1::x}}");
  });
});
