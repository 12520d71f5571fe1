import { describe, expect, test } from "bun:test";
import { clozeHtml } from "../../src/services/spelling/cloze";
import { matchesTitle } from "../../src/services/spelling/title-fragments";

/** The app's marks, written out so that a change to what the learner sees fails here. */
const MARKS: [string, string][] = [
  ["<mark title='Hidden text that is matching the answer'>[...]</mark>", "[...]"],
  ["<mark title='Hidden text that is partially matching the answer'>[..~]</mark>", "[..~]"],
  ["<mark title='Hidden pronunciation'>/.../</mark>", "/.../"],
  ["<mark title='Hidden subtitle that is matching the answer'>(...)</mark>", "<...>"],
];

/** The cloze with the short replacement strings of Appendix A.3's table. */
function cloze(title: string, details: string): string {
  return MARKS.reduce((text, [mark, short]) => text.split(mark).join(short), clozeHtml(details, title));
}

describe("the cloze of a spelling stem (Appendix A.3)", () => {
  test.each([
    ["Sedition", "word sedition means this", "word [...] means this"],
    ["north / up", "it's on the north or up side", "it's on the [...] or [...] side"],
    ["cats", "a cat", "a [..~]"],
    ["cat", "concat", "concat"],
    ["cat dog", "cat and dog", "[...]"],
    ["cat", "/kat/", "/.../"],
    ["t", "the t twins", "the [...] twins"],
    ["~cat", "concat", "con[...]"],
    ["~cat", "cat", "cat"],
    ["cat(animal)", "cat is an animal", "[...] is an <...>"],
    ["cat(animal) dog", "cat is an animal", "cat is an animal"],
    ["6", "6year", "[...]year"],
    ["鳴く", "羊はなんて鳴くの？", "羊はなんて[...]の？"],
    ["cat", "<p class='cat'>a cat</p>", "<p class='cat'>a [...]</p>"],
  ])("title %p in %p gives %p", (title, details, expected) => {
    expect(cloze(title, details)).toBe(expected);
  });

  test("the app's marks are the HTML the learner sees", () => {
    expect(clozeHtml("<p>a cat, a cats /kæt/</p>", "cats(animal)")).toBe(
      "<p>a <mark title='Hidden text that is partially matching the answer'>[..~]</mark>, a " +
        "<mark title='Hidden text that is matching the answer'>[...]</mark> <mark title='Hidden pronunciation'>/.../</mark></p>",
    );
  });

  test("$ in the content survives, also where it looks like a replacement pattern", () => {
    // Details reach the cloze as sanitized HTML, where & is always written &amp;.
    expect(cloze("cat", "a cat costs $5, $&amp; or $1 $$ or $'")).toBe("a [...] costs $5, $&amp; or $1 $$ or $'");
    expect(cloze("price$tag", "a price$tag, $tag")).toBe("a [...], $tag");
  });

  test("URLs are not pronunciations", () => {
    expect(cloze("moon", "see http://xxx/ooo")).toBe("see http://xxx/ooo");
  });

  test("tags and their attributes are left alone, text between them is clozed", () => {
    expect(cloze("moon", '<p><a href="/moon">the moon</a> and <em>moon</em></p>')).toBe(
      '<p><a href="/moon">the [...]</a> and <em>[...]</em></p>',
    );
  });

  test("entities are read as the characters they stand for and written back escaped", () => {
    expect(cloze("AT&T", "<p>AT&amp;T &lt;b&gt; &copy;</p>")).toBe("<p>[...] &lt;b&gt; &copy;</p>");
    expect(cloze("amp", "<p>A &amp; amp</p>")).toBe("<p>A &amp; [...]</p>");

    // Entities we do not decode come back as they were, also after a hidden pronunciation took one.
    expect(cloze("cat", "/k&eacute;t/ a cat &hellip; &#xE000; \uE001 \u{F0000}")).toBe(
      "/.../ a [...] &hellip; &#xE000; &#xe001; &#xf0000;",
    );
  });

  test("fragments with more words hide first, also with articles and hyphens between the words", () => {
    expect(cloze("north pole / pole", "the north-the pole and a pole")).toBe("the [...] and a [...]");
  });

  test("blank fragments hide nothing", () => {
    expect(cloze("/", "a / b")).toBe("a / b");
    expect(cloze("the / a", "the a cat")).toBe("[...] [...] cat");
  });
});

describe("the spelling answer check (§4.6)", () => {
  test.each([
    ["this / that", "this", true],
    ["this / that", "that", true],
    ["this / that", "this / that", true],
    ["this / that", "those", false],
    ["cat (animal)", "cat", true],
    ["cat (animal)", "Cat (Animal)", true],
    ["cat (animal)", "animal", false],
    ["~cat", "cat", true],
    ["~cat", "~cat", true],
    ["〜cat", "cat", true],
    ["moon", " MOON ", true],
    ["moon", "moo", false],
    ["http://x", "http://x", true],
  ])("title %p accepts %p: %p", (title, answer, accepted) => {
    expect(matchesTitle(title, answer)).toBe(accepted);
  });

  test("a null answer is incorrect", () => {
    expect(matchesTitle("moon", null)).toBe(false);
  });

  test("the whole title is compared with the raw answer, fragments with the trimmed one", () => {
    expect(matchesTitle(" cat dog ", "cat dog")).toBe(true);
    expect(matchesTitle("a / b c", "b c ")).toBe(true);
  });
});
