/**
 * The rich details editor never changes Markdown it is given: a note opens in
 * rich mode only if Markdown → Quill → Markdown gives back the same text; otherwise it is edited
 * as Markdown, with the reason shown. These tests run the editor's real pipeline (marked's HTML,
 * Quill under happy-dom, the Markdown writer) over a corpus and over generated documents.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import type Quill from "quill";
import { createRichQuill, editorMarkdown, setMarkdown } from "../../islands/note-show/markdown-convert";
import { layoutOf, RICH_MODE_REASONS, richModeRefusal, withoutEdgeWhitespace } from "../../islands/note-show/rich-mode";
import { commonmarkLike, gfm, otherMarkdown, prose, testNoteDetails } from "./markdown-corpus";

/** Generated cases per property; RICH_MODE_RUNS=5000 for a longer search. */
const RUNS = Number(process.env.RICH_MODE_RUNS ?? 200);
// A deadline, not a timing goal: a busy 2-core machine runs a generated document several times slower than an idle one.
const PROPERTY_TIMEOUT_MS = 30_000 + RUNS * 150;

let quill: Quill;
let second: Quill;
beforeAll(() => {
  const make = () => {
    const host = document.createElement("div");
    document.body.append(host);
    return createRichQuill(host, { readonly: false, placeholder: "Enter note details here..." });
  };
  quill = make();
  second = make();
});

/** Markdown → the editor → Markdown, unedited: what saving it would write. */
function roundTrip(markdown: string): string {
  setMarkdown(quill, markdown);
  return editorMarkdown(quill, layoutOf(withoutEdgeWhitespace(markdown)));
}

const corpus = [...Object.values(commonmarkLike), ...Object.values(gfm), ...Object.values(otherMarkdown)]
  .flat()
  .concat(testNoteDetails, prose);

/**
 * The property: the page's cheap check (no Quill) refuses the text, or the editor gives it back
 * unchanged. Blank lines before and whitespace after the whole text are not kept (they mean
 * nothing in Markdown); everything else must be identical.
 */
function expectRefusedOrKept(markdown: string) {
  if (richModeRefusal(markdown) !== undefined) return;
  expect({ markdown, saved: roundTrip(markdown) }).toEqual({ markdown, saved: withoutEdgeWhitespace(markdown) });
}

describe("which notes rich mode refuses, and why", () => {
  test.each([
    ["| Property | Value |\n|---|---|\n| Moons | 2 |", RICH_MODE_REASONS.table],
    ["Planets\n\n| Name | Moons |\n|:-----|------:|\n| Mars | 2 |", RICH_MODE_REASONS.table],
    ["- [ ] buy milk\n- [x] call home", RICH_MODE_REASONS.taskList],
    ["- one\n  - [ ] nested task", RICH_MODE_REASONS.taskList],
    ["A claim.[^1]\n\n[^1]: The source.", RICH_MODE_REASONS.footnote],
    ["---\ntitle: Moon\n---\n\nThe Moon.", RICH_MODE_REASONS.frontMatter],
    ["<div>\nblock HTML\n</div>", RICH_MODE_REASONS.html],
    ["Incitement to **rebel** <i>raw</i>", RICH_MODE_REASONS.html],
    ["<!-- a comment -->", RICH_MODE_REASONS.html],
    ["![the moon](https://example.com/moon.png)", RICH_MODE_REASONS.image],
    ["Context: Plants\nTitle: Leaf", RICH_MODE_REASONS.lineBreak],
    ["two spaces  \nmake a break", RICH_MODE_REASONS.lineBreak],
    ["---", RICH_MODE_REASONS.other],
    ["* star bullets", RICH_MODE_REASONS.other],
    ["```js\nconst x = 1;\n```", RICH_MODE_REASONS.other],
    ['[a titled link](/u "title")', RICH_MODE_REASONS.other],
    ["_underscore emphasis_", RICH_MODE_REASONS.other],
    ["- loose\n\n- list", RICH_MODE_REASONS.other],
  ])("%j: %s", (markdown, reason) => {
    expect(richModeRefusal(markdown)).toBe(reason);
    // Each is a text the editor would indeed have changed.
    expect(roundTrip(markdown)).not.toBe(markdown);
  });

  test.each(prose.map((markdown) => [markdown]))("ordinary notes stay in rich mode and come back unchanged: %j", (markdown) => {
    expect(richModeRefusal(markdown)).toBeUndefined();
    expect(roundTrip(markdown)).toBe(markdown);
  });

  test("a table edited in rich mode would have been saved flattened (the bug this prevents)", () => {
    expect(roundTrip("| Property | Value |\n|---|---|\n| Moons | 2 |")).toBe("Property Value\n\nMoons\n\n2");
  });

  test("whitespace around the whole text is not content", () => {
    expect(richModeRefusal("\n\nWarm **blooded**\n\n  ")).toBeUndefined();
    expect(roundTrip("\n\nWarm **blooded**\n\n  ")).toBe("Warm **blooded**");
  });
});

describe("an edit in rich mode changes only what was edited", () => {
  test("one character typed into a paragraph: the other blocks and the lines between them stay as they were", () => {
    const source = "# Moon\nEarth's satellite.\n\n- near\n- bright\n\nIt has **no** air.";
    setMarkdown(quill, source);
    quill.insertText(quill.getText().indexOf("satellite") + "satellite".length, "s", "silent");
    expect(editorMarkdown(quill, layoutOf(source))).toBe("# Moon\nEarth's satellites.\n\n- near\n- bright\n\nIt has **no** air.");
  });

  test("a paragraph that starts like a list item of ten digits is a paragraph: editing it keeps the lines before it", () => {
    const source = "# Moon\n\n  \n\n1234567890. not a list";
    setMarkdown(quill, source);
    quill.insertText(quill.getText().indexOf("1234"), "Z", "silent");
    expect(editorMarkdown(quill, layoutOf(source))).toBe("# Moon\n\n  \n\nZ1234567890. not a list");
  });

  test("a new paragraph is parted by a blank line; the rest keeps its line breaks", () => {
    const source = "# Moon\nEarth's satellite.";
    setMarkdown(quill, source);
    quill.insertText(quill.getLength() - 1, "\nNew line", "silent");
    expect(editorMarkdown(quill, layoutOf(source))).toBe("# Moon\nEarth's satellite.\n\nNew line");
  });

  test(
    "for documents combined from the corpus: one typed letter changes one block, nothing else",
    () => {
      const accepted = corpus.filter((markdown) => richModeRefusal(markdown) === undefined && withoutEdgeWhitespace(markdown));
      const document = fc.array(fc.constantFrom(...accepted), { minLength: 1, maxLength: 4 }).map((parts) => parts.join("\n\n"));
      fc.assert(
        fc.property(document, fc.nat(), (markdown, at) => {
          fc.pre(richModeRefusal(markdown) === undefined);
          const source = withoutEdgeWhitespace(markdown);
          setMarkdown(quill, source);
          quill.insertText(at % (quill.getLength() - 1 || 1), "Z", "silent");
          const before = layoutOf(source);
          const after = layoutOf(editorMarkdown(quill, before));
          expect(after.separators).toEqual(before.separators);
          expect(after.blocks.filter((block, i) => block !== before.blocks[i]).length).toBeLessThanOrEqual(1);
        }),
        { numRuns: RUNS },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );
});

describe("Markdown → rich → Markdown is identical, or rich mode is refused", () => {
  test("for every document of the corpus", () => {
    for (const markdown of corpus) expectRefusedOrKept(markdown);
  });

  test(
    "for documents combined from the corpus's fragments",
    () => {
      const separator = fc.constantFrom("\n\n", "\n", "\n\n\n", "");
      const document = fc
        .tuple(fc.array(fc.tuple(fc.constantFrom(...corpus), separator), { minLength: 1, maxLength: 4 }))
        .map(([parts]) => parts.map(([fragment, sep]) => fragment + sep).join(""));
      fc.assert(
        fc.property(document, (markdown) => expectRefusedOrKept(markdown)),
        { numRuns: RUNS },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  test("most of the corpus is refused for a reason of its own, not the generic one", () => {
    const generic = corpus.filter((m) => richModeRefusal(m) === RICH_MODE_REASONS.other);
    const refused = corpus.filter((m) => richModeRefusal(m) !== undefined);
    expect(refused.length).toBeGreaterThan(0);
    expect(generic.length).toBeLessThan(refused.length);
  });
});

/*
 * The other direction: whatever a learner makes in the rich editor is saved as Markdown that
 * reads back as the same content, and that rich mode accepts again (so a note never switches to
 * Markdown mode because of the editor's own writing).
 */
describe("rich → Markdown → rich keeps what was typed", () => {
  const letters = fc.constantFrom("a", "b", "c", "1");
  const specials = fc.constantFrom(..."*_`[]()!<>#-+.\\&;~:^=|'\"/?%$");
  const word = fc.string({
    unit: fc.oneof({ arbitrary: letters, weight: 4 }, { arbitrary: specials, weight: 1 }),
    minLength: 1,
    maxLength: 5,
  });
  const words = (w: fc.Arbitrary<string>) => fc.array(w, { minLength: 1, maxLength: 3 }).map((ws) => ws.join(" "));
  const href = fc.constantFrom("https://example.com", "/n12", "https://example.com/a_b(c)", "mailto:x@y.z");
  const run = fc.oneof(
    words(word).map((text) => ({ text, attributes: {} as Record<string, unknown> })),
    fc
      .record({
        text: words(word),
        bold: fc.boolean(),
        italic: fc.boolean(),
        strike: fc.boolean(),
        code: fc.boolean(),
        link: fc.option(href, { nil: undefined }),
      })
      // (Code with a backtick inside a link's text is left as text: marked would not find the link's end.)
      .map(({ text, ...formats }) => ({
        text: formats.code && formats.link ? text.replaceAll("`", "").replace(/\s+/g, " ").trim() || "a" : text,
        attributes: Object.fromEntries(Object.entries(formats).filter(([, v]) => v)),
      })),
    // A link whose text is its address, written bare ("see https://example.com").
    fc
      .constantFrom("https://example.com", "www.example.com")
      .map((text) => ({ text, attributes: { link: text.startsWith("www") ? `http://${text}` : text } as Record<string, unknown> })),
    words(word.filter((w) => !w.includes("`"))).map((text) => ({ text, attributes: { code: true } as Record<string, unknown> })),
  );
  const block = fc.oneof(
    fc.constant({}),
    fc.integer({ min: 1, max: 3 }).map((header) => ({ header })),
    fc.constant({ blockquote: true }),
    fc.record({ list: fc.constantFrom("bullet", "ordered"), indent: fc.integer({ min: 0, max: 2 }) }),
    fc.constant({ "code-block": "plain" }),
  );
  const codeLine = fc.string({ unit: fc.constantFrom("a", " ", "`", "*", "<", "\\", "#"), maxLength: 6 });
  const line = (separators: string[]) =>
    fc.tuple(block, fc.array(fc.tuple(run, fc.constantFrom(...separators)), { minLength: 1, maxLength: 4 }), codeLine);

  /**
   * A Quill document: lists nest one level at a time, as Markdown can write them, and no code
   * block is only blank lines (dropped on saving, like empty paragraphs).
   */
  const documentOps = (separators: string[]) =>
    fc
      .array(line(separators), { minLength: 1, maxLength: 6 })
      .map((lines) => {
        const ops: { insert: string; attributes?: Record<string, unknown> }[] = [];
        let previousIndent = -1;
        for (const [format, runs, code] of lines) {
          let attributes: Record<string, unknown> = { ...format };
          if ("list" in attributes) {
            const indent = Math.min(attributes.indent as number, previousIndent + 1);
            previousIndent = indent;
            attributes = indent ? { ...attributes, indent } : { list: attributes.list };
          } else previousIndent = -1;
          if ("code-block" in attributes) {
            if (code) ops.push({ insert: code });
          } else {
            runs.forEach(([r, separator], index) => {
              ops.push({ insert: r.text, attributes: r.attributes });
              if (index < runs.length - 1 && separator) ops.push({ insert: separator });
            });
          }
          ops.push({ insert: "\n", attributes });
        }
        return ops;
      })
      .filter((ops) => !blankCodeBlock(ops));

  function blankCodeBlock(ops: { insert: string; attributes?: Record<string, unknown> }[]): boolean {
    let blockText = "";
    let lineText = "";
    let inCode = false;
    for (const op of ops) {
      if (op.insert !== "\n") {
        lineText += op.insert;
        continue;
      }
      if (op.attributes?.["code-block"]) {
        blockText += lineText;
        inCode = true;
      } else {
        if (inCode && !blockText.trim()) return true;
        inCode = false;
        blockText = "";
      }
      lineText = "";
    }
    return inCode && !blockText.trim();
  }

  /** Markdown → the second editor: its content, and the Markdown rich mode would refuse it with, if any. */
  function saveAndReload(ops: unknown[]) {
    quill.setContents(ops as never, "silent");
    const typed = quill.getContents().ops;
    const markdown = editorMarkdown(quill);
    setMarkdown(second, markdown);
    return { typed, markdown, refusal: richModeRefusal(markdown), reloaded: second.getContents().ops };
  }
  const text = (ops: { insert?: unknown }[]) => ops.map((op) => op.insert).join("");

  test(
    "generated rich documents, words and formats apart: everything comes back",
    () => {
      fc.assert(
        fc.property(documentOps([" "]), (ops) => {
          const { typed, markdown, refusal, reloaded } = saveAndReload(ops);
          expect({ markdown, refusal }).toEqual({ markdown, refusal: undefined });
          expect({ markdown, content: reloaded }).toEqual({ markdown, content: typed });
        }),
        { numRuns: RUNS },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  test(
    "generated rich documents, formats touching words: the text always comes back",
    () => {
      fc.assert(
        fc.property(documentOps([" ", ""]), (ops) => {
          const { typed, markdown, refusal, reloaded } = saveAndReload(ops);
          expect({ markdown, refusal }).toEqual({ markdown, refusal: undefined });
          expect({ markdown, text: text(reloaded) }).toEqual({ markdown, text: text(typed) });
        }),
        { numRuns: RUNS },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  test("dollars typed in rich mode stay text: escaped only where they would read as math", () => {
    quill.setContents([{ insert: "costs $5 and $10\n" }] as never, "silent");
    expect(editorMarkdown(quill)).toBe("costs $5 and $10");
    quill.setContents(
      [{ insert: "the $x$ variable, " }, { insert: "$y$", attributes: { code: true } }, { insert: "\n" }] as never,
      "silent",
    );
    expect(editorMarkdown(quill)).toBe("the \\$x\\$ variable, `$y$`");
    expect(richModeRefusal(editorMarkdown(quill))).toBeUndefined();
  });

  test("a format Markdown cannot write against a word is dropped, never written as stray delimiters", () => {
    // "a*(b)*c" would show its asterisks: CommonMark takes no emphasis between a letter and punctuation.
    quill.setContents([{ insert: "a" }, { insert: "(b)", attributes: { italic: true } }, { insert: "c\n" }] as never, "silent");
    expect(editorMarkdown(quill)).toBe("a(b)c");
    quill.setContents([{ insert: "see " }, { insert: "(b)", attributes: { italic: true } }, { insert: " c\n" }] as never, "silent");
    expect(editorMarkdown(quill)).toBe("see *(b)* c");
    // Around a link the delimiters go inside its text, where they always count.
    quill.setContents([{ insert: "a", attributes: { bold: true, link: "https://example.com" } }, { insert: "b\n" }] as never, "silent");
    expect(editorMarkdown(quill)).toBe("[**a**](https://example.com)b");
    // "!" before a link is not an image.
    quill.setContents(
      [{ insert: "wow!" }, { insert: "a", attributes: { link: "https://example.com" } }, { insert: "\n" }] as never,
      "silent",
    );
    expect(editorMarkdown(quill)).toBe("wow\\![a](https://example.com)");
  });

  test("a dropped format leaves the Markdown that the rest reads as, so rich mode takes it back", () => {
    // Found by the property above: "~~" around "*" before a letter cannot be written, and the bold
    // runs it had parted were then written apart from the bold link's, as the writer would not
    // write what it reads back ("**\\*a** **[a](…)**" is refused: it would become "[**a**](…)").
    quill.setContents(
      [
        { insert: "*", attributes: { bold: true, strike: true } },
        { insert: "a", attributes: { bold: true } },
        { insert: " " },
        { insert: "a", attributes: { bold: true, link: "https://example.com" } },
        { insert: "\n", attributes: { blockquote: true } },
      ] as never,
      "silent",
    );
    const markdown = editorMarkdown(quill);
    expect({ markdown, refusal: richModeRefusal(markdown) }).toEqual({ markdown, refusal: undefined });
    setMarkdown(second, markdown);
    expect(second.getText()).toBe("*a a\n");
  });
});
