/**
 * shortDetailsOf answers plain details from their first characters without cleaning the whole
 * text: the answer must be exactly what the full clean-up gives, for any text.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { cleanShortDetails, shortDetailsOf } from "../../src/services/notes/presenters";

describe("shortDetailsOf", () => {
  test("plain words, Markdown and odd spacing", () => {
    expect(shortDetailsOf("Plants turn light into sugar")).toBe("Plants turn light into sugar");
    expect(shortDetailsOf("a".repeat(51))).toBe(`${"a".repeat(50)}...`);
    expect(shortDetailsOf("a".repeat(50))).toBe("a".repeat(50));
    expect(shortDetailsOf(`${"a".repeat(50)} `)).toBe("a".repeat(50));
    expect(shortDetailsOf("**Bold** [link](http://x) ![img](y.png)  end")).toBe("Bold link end");
    expect(shortDetailsOf(" leading\nnewline")).toBe("leading newline");
  });

  test("is the full clean-up's answer for any text", () => {
    const piece = fc.oneof(
      fc.constantFrom(" ", "  ", "\n", "\t", "\u00a0", "#", "*", "_", "`", "~", ">", "[", "]", "(", ")", "!", "![a](b)", "[t](u)", "😀"),
      fc.string({ minLength: 1, maxLength: 12 }),
      fc.constantFrom("word", "Plants", "x".repeat(48)),
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 30 }).map((pieces) => pieces.join("")),
        (details) => {
          expect(shortDetailsOf(details)).toBe(cleanShortDetails(details));
        },
      ),
      { numRuns: 3000, seed: 94 },
    );
  });
});
