/**
 * shortDetailsOf reads details as Markdown (syntax leaves, the text stays) and answers plain
 * details from their first characters without reading the whole text: the answer must be exactly
 * what reading the whole text gives, for any text.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { cleanShortDetails, readsAsWritten, shortDetailsFromHead, shortDetailsOf } from "../../src/services/notes/presenters";

describe("shortDetailsOf", () => {
  test("plain words, Markdown and odd spacing", () => {
    expect(shortDetailsOf("Plants turn light into sugar")).toBe("Plants turn light into sugar");
    expect(shortDetailsOf("a".repeat(51))).toBe(`${"a".repeat(50)}...`);
    expect(shortDetailsOf("a".repeat(50))).toBe("a".repeat(50));
    expect(shortDetailsOf(`${"a".repeat(50)} `)).toBe("a".repeat(50));
    expect(shortDetailsOf("**Bold** [link](http://x) ![img](y.png)  end")).toBe("Bold link end");
    expect(shortDetailsOf(" leading\nnewline")).toBe("leading newline");
  });

  test("keeps identifiers, dunder names and arithmetic as written", () => {
    expect(shortDetailsOf("call my_var_name and __init__ then 2*3*4")).toBe("call my_var_name and __init__ then 2*3*4");
    expect(shortDetailsOf("a *real* emphasis, `code`, ~~gone~~ and a\\*star")).toBe("a real emphasis, code, gone and a*star");
    expect(shortDetailsOf("5 &lt; 6 &amp; x<sub>2</sub>")).toBe("5 < 6 & x<sub>2</sub>");
  });

  test("never starts with front matter, and reads headings, lists, quotes, tables and wikilinks", () => {
    expect(shortDetailsOf("---\ntags:\n  - cell\naliases: [x]\n---\n\n# Cells\n\nThe units of life.")).toBe("Cells The units of life.");
    expect(shortDetailsOf("- one\n- two\n\n> quoted\n\n1. first")).toBe("one two quoted first");
    expect(shortDetailsOf("| a | b |\n|---|---|\n| [[Note\\|alias]] | ![[x.png\\|600]] |")).toBe("a b alias");
    expect(shortDetailsOf("See [[Other note]] and [[Obsidian Help/Plugins/Templates|Templates]].")).toBe("See Other note and Templates.");
  });

  test("long details are read from their start only, with the same answer", () => {
    const start = "## The *start*\n\nFirst words of the note come here, enough for a snippet.\n\n";
    const long = `${start}${"More **text** with [links](http://x).\n\n".repeat(5000)}`;
    expect(shortDetailsOf(long)).toBe(cleanShortDetails(long));
    expect(shortDetailsOf(long)).toBe("The start First words of the note come here, enoug...");
    const imagesFirst = `${"![i](x.png)\n\n".repeat(800)}Words after the images`;
    expect(shortDetailsOf(imagesFirst, 100)).toBe("Words after the images");
  });

  test("plain words with a space just past the cut are answered without reading the Markdown, with the same answer", () => {
    const words = "saquentu rakaka quenka dorlo dorsalo gritu tulokaa";
    expect(words.length).toBe(50);
    expect(readsAsWritten(`${words} `, `${words} dorka quenka`)).toBe(true);
    // Trailing spaces end the text (and are trimmed): Markdown decides.
    expect(readsAsWritten(`${words} `, `${words} `)).toBe(false);
    expect(readsAsWritten(`${words} `, `${words}  `)).toBe(false);
    expect(readsAsWritten(`${words} `, `${words} <!-- -->`)).toBe(false);
    const rest = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom(" ", "  ", "\n", "<!-- x -->", "[a]: b", "word", "**b**", "# h"));
    fc.assert(
      fc.property(rest, (after) => {
        const details = `${words} ${after}`;
        expect(shortDetailsOf(details)).toBe(cleanShortDetails(details));
      }),
      { numRuns: 1000, seed: 7 },
    );
  });

  test("from the head of longer details: the same answer, or none when only the whole text can tell", () => {
    const words = "saquentu rakaka quenka dorlo dorsalo gritu tulokaa dorka quenka";
    expect(shortDetailsFromHead(words)).toBe(shortDetailsOf(`${words} and more`));
    expect(shortDetailsFromHead(`**Bold** ${words}`)).toBeUndefined();
    // Too short to tell whether the text goes on past the cut.
    expect(shortDetailsFromHead(words.slice(0, 51))).toBeUndefined();
    const piece = fc.oneof(
      fc.constantFrom(" ", "  ", "\n", "*", "[", "😀", "&amp;", "- ", "1. ", "word", "x".repeat(48), "<!-- -->"),
      fc.string({ minLength: 1, maxLength: 12 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), fc.integer({ min: 52, max: 80 }), (pieces, headLength) => {
        const details = pieces.join("");
        const short = shortDetailsFromHead(details.slice(0, headLength));
        if (short !== undefined) expect(short).toBe(cleanShortDetails(details));
      }),
      { numRuns: 3000, seed: 11 },
    );
  });

  test("is what reading the whole text gives, for any text", () => {
    const piece = fc.oneof(
      fc.constantFrom(" ", "  ", "\n", "\n\n", "\t", "\u00a0", "#", "*", "_", "`", "~", ">", "[", "]", "(", ")", "!", "![a](b)", "[t](u)"),
      fc.constantFrom("😀", "<b>", "&amp;", "&#x41;", "\\", "|", "- ", "+ ", "1. ", "2) ", "---\n", "[[x|y]]", "![[e.png]]", "__", "2*3"),
      fc.string({ minLength: 1, maxLength: 12 }),
      fc.constantFrom("word", "Plants", "x".repeat(48)),
    );
    const text = fc.array(piece, { maxLength: 30 }).map((pieces) => pieces.join(""));
    fc.assert(
      fc.property(text, (details) => {
        expect(shortDetailsOf(details)).toBe(cleanShortDetails(details));
        expect(shortDetailsOf(details, 40)).toBe(cleanShortDetails(details));
      }),
      { numRuns: 3000, seed: 94 },
    );
  });
});
