import { expect, test } from "bun:test";
import fc from "fast-check";
import { mergeTexts } from "../../islands/lib/text-merge";

const base = "Mitochondria produce ATP.\n\nThey have their own DNA.\n\nCells have many of them.";

test("edits in different paragraphs are both kept", () => {
  const mine = base.replace("produce ATP", "produce most ATP");
  const theirs = `${base}\n\nThey came from bacteria.`;
  expect(mergeTexts(base, mine, theirs)).toBe(
    "Mitochondria produce most ATP.\n\nThey have their own DNA.\n\nCells have many of them.\n\nThey came from bacteria.",
  );
});

test("edits of different words of one line are both kept; adjacent paragraphs too", () => {
  expect(mergeTexts("The quick brown fox", "The slow brown fox", "The quick brown cat")).toBe("The slow brown cat");
  const mine = base.replace("Mitochondria", "Mitochondria (plural)");
  const theirs = base.replace("own DNA", "own circular DNA");
  expect(mergeTexts(base, mine, theirs)).toBe(
    "Mitochondria (plural) produce ATP.\n\nThey have their own circular DNA.\n\nCells have many of them.",
  );
});

test("edits of the same words, or additions at the same place, are a conflict", () => {
  expect(mergeTexts(base, base.replace("ATP", "energy"), base.replace("ATP", "power"))).toBeUndefined();
  expect(mergeTexts(base, `${base} Mine.`, `${base} Theirs.`)).toBeUndefined();
  expect(mergeTexts("Title", "My title", "Their title")).toBeUndefined();
});

test("the same edit on both sides, or an edit on one side only, is that edit", () => {
  const edited = base.replace("ATP", "energy");
  expect(mergeTexts(base, edited, edited)).toBe(edited);
  expect(mergeTexts(base, edited, base)).toBe(edited);
  expect(mergeTexts(base, base, edited)).toBe(edited);
});

test("a merge keeps every change of each side when they do not touch (property)", () => {
  // Two edits at the two ends of a text made of lines: whatever the texts, both survive exactly.
  const line = fc.stringMatching(/^[a-z ]{0,12}$/);
  fc.assert(
    fc.property(fc.array(line, { minLength: 3, maxLength: 8 }), line, line, (middle, start, end) => {
      const text = middle.join("\n");
      const mine = `${start}!\n${text}`;
      const theirs = `${text}\n?${end}`;
      const merged = mergeTexts(text, mine, theirs);
      const both = `${start}!\n${text}\n?${end}`;
      // A text of nothing but line breaks is one token to diff3, which both edits touch: asking
      // the person is right there too. Never a wrong merge.
      if (/\S/.test(text)) expect(merged).toBe(both);
      else expect([both, undefined]).toContain(merged);
    }),
  );
});

test("long details (200,000 characters in 2,000 paragraphs) merge", () => {
  const paragraphs = Array.from({ length: 2000 }, (_, i) => `Paragraph ${i} says something about cells, ${"and more ".repeat(8)}`);
  const long = paragraphs.join("\n\n");
  const mine = long.replace("Paragraph 10 ", "Paragraph ten ");
  const theirs = long.replace("Paragraph 1990 ", "Paragraph nineteen ninety ");
  const merged = mergeTexts(long, mine, theirs);
  expect(merged).toBe(mine.replace("Paragraph 1990 ", "Paragraph nineteen ninety "));
});
