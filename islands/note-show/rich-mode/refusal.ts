import { Lexer, type Token, type Tokens } from "marked";
import { readsAsMath } from "../../lib/markdown";
import { LEX_OPTIONS, layoutOf, tokensToDelta, withoutEdgeWhitespace } from "./delta";
import { deltaToBlocks } from "./markdown-writer";

/**
 * Whether the rich editor may take a note's Markdown, and if not, why: the constructs with a
 * reason of their own (a table, a task list...), then a round trip through the model of what
 * Quill makes of it (delta.ts) and the writer (markdown-writer.ts), which must give back every
 * block character for character.
 */

export const RICH_MODE_REASONS = {
  table: "This note has a table; edit it as Markdown",
  taskList: "This note has a task list; edit it as Markdown",
  footnote: "This note has a footnote; edit it as Markdown",
  frontMatter: "This note has front matter; edit it as Markdown",
  html: "This note has HTML; edit it as Markdown",
  math: "This note has math; edit it as Markdown",
  image: "This note has an image; edit it as Markdown",
  lineBreak: "This note has line breaks inside a paragraph; edit it as Markdown",
  other: "This note has Markdown the rich editor cannot keep; edit it as Markdown",
} as const;

const FRONT_MATTER = /^(---|\+\+\+)[ \t]*\n[\s\S]*?\n\1[ \t]*(\n|$)/;
const FOOTNOTE = /\[\^[^\]\s]+\]/;

/** Undefined when the rich editor keeps this Markdown exactly; otherwise the reason to show. */
export function richModeRefusal(markdown: string): string | undefined {
  const source = withoutEdgeWhitespace(markdown);
  if (source === "") return undefined;
  if (FRONT_MATTER.test(source)) return RICH_MODE_REASONS.frontMatter;
  // The rich editor would show the TeX as text and write it back escaped.
  if (readsAsMath(source)) return RICH_MODE_REASONS.math;
  const tokens = Lexer.lex(source, LEX_OPTIONS);
  const construct = constructWithAReason(tokens);
  if (construct) return construct;
  // Everything else the editor could show, but it must also write it back character for character:
  // each block as it is, the blank lines between them kept (see joinSeparators).
  const ops = tokensToDelta(tokens);
  const blocks = layoutOf(source, tokens).blocks;
  const written = ops && deltaToBlocks(ops);
  return written && written.length === blocks.length && written.every((block, i) => block === blocks[i])
    ? undefined
    : RICH_MODE_REASONS.other;
}

/** The first construct with a reason of its own, searched through the whole token tree. */
function constructWithAReason(tokens: Token[]): string | undefined {
  for (const token of tokens) {
    switch (token.type) {
      case "table":
        return RICH_MODE_REASONS.table;
      case "html":
        return RICH_MODE_REASONS.html;
      case "image":
        return RICH_MODE_REASONS.image;
      case "br":
        return RICH_MODE_REASONS.lineBreak;
      case "list":
        if ((token as Tokens.List).items.some((item) => item.task)) return RICH_MODE_REASONS.taskList;
        break;
      case "text":
      case "escape":
        if ("tokens" in token && token.tokens) break; // a list item's text: its inline tokens follow
        // marked has no footnotes: "[^1]" is plain text that other Markdown tools would change.
        if (FOOTNOTE.test(token.raw)) return RICH_MODE_REASONS.footnote;
        if (token.raw.includes("\n")) return RICH_MODE_REASONS.lineBreak;
        break;
    }
    const children =
      token.type === "list" ? (token as Tokens.List).items : "tokens" in token ? (token.tokens as Token[] | undefined) : undefined;
    const found = children && constructWithAReason(children);
    if (found) return found;
  }
  return undefined;
}
