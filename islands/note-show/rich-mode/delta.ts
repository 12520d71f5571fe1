import { Lexer, type Token, type Tokens } from "marked";
import { safeUrl } from "../../lib/markdown";

/**
 * Quill's document model as the rich editor sees it, and what both directions share: Delta ops,
 * lines of text runs with their inline formats, the lexer options, a Markdown text's layout of
 * blocks and separators. Also the reading direction: what Quill makes of the HTML marked renders
 * for some Markdown (`tokensToDelta`, `inlineRuns`), used by the check in refusal.ts and, to
 * read a written line back, by inline-writer.ts.
 */

/** The same options as the renderer in islands/lib/markdown.ts, so both see the same structure. */
export const LEX_OPTIONS = { gfm: true, breaks: false } as const;

/**
 * Blank lines before the text and whitespace after it mean nothing in Markdown, and the rich
 * editor does not keep them: the text it is compared with, and what it saves after an edit.
 */
export function withoutEdgeWhitespace(markdown: string): string {
  return markdown.replace(/^(?:[ \t]*\n)+/, "").trimEnd();
}

/** A Markdown text as its top-level blocks and the whitespace between them. */
export interface Layout {
  blocks: string[];
  separators: string[];
}

export function layoutOf(markdown: string, tokens = Lexer.lex(markdown, LEX_OPTIONS)): Layout {
  const blocks: string[] = [];
  const separators: string[] = [];
  let pending = ""; // whitespace since the last block
  for (const token of tokens) {
    if (token.type === "space") {
      pending += token.raw;
      continue;
    }
    const text = token.raw.replace(/\n+$/, "");
    if (blocks.length > 0) separators.push(pending);
    blocks.push(text);
    pending = token.raw.slice(text.length);
  }
  return { blocks, separators };
}

/** A Quill Delta operation, as `quill.getContents().ops` gives them. */
export interface DeltaOp {
  insert?: unknown;
  attributes?: Record<string, unknown>;
}

/** A run of text with its inline formats. */
export interface Run {
  text: string;
  bold?: true;
  italic?: true;
  strike?: true;
  code?: true;
  link?: string;
  /** Its place in the line, to name it when a format must be dropped. */
  id?: number;
}
export type RunFormat = "link" | "bold" | "italic" | "strike" | "code";
/** On a tie, the order formats nest in: a link outside the others ("[**a**](u)", whose delimiters always count). */
export const FORMATS: RunFormat[] = ["link", "bold", "italic", "strike", "code"];

export function runOf(text: string, attributes: Record<string, unknown> = {}): Run {
  const run: Run = { text };
  for (const format of ["bold", "italic", "strike", "code"] as const) if (attributes[format]) run[format] = true;
  if (typeof attributes.link === "string") run.link = attributes.link;
  return run;
}

/**
 * What Quill makes of the HTML marked renders for these tokens, or null for what it cannot hold
 * or would visibly change. Only needs to be exact for Markdown in the canonical form; anything
 * else comes back different from the writer and is refused either way.
 */
export function tokensToDelta(tokens: Token[]): DeltaOp[] | null {
  const ops: DeltaOp[] = [];
  const line = (inline: Token[], attributes: Record<string, unknown>) => {
    const runs = inlineRuns(inline);
    if (!runs) return false;
    for (const run of runs) ops.push({ insert: run.text, attributes: { ...run } });
    ops.push({ insert: "\n", attributes });
    return true;
  };
  const list = (token: Tokens.List, indent: number): boolean =>
    token.items.every((item) => {
      const [first, ...nested] = item.tokens;
      if (first?.type !== "text") return false;
      const attributes = { list: token.ordered ? "ordered" : "bullet", ...(indent ? { indent } : {}) };
      return (
        line((first as Tokens.Text).tokens ?? [], attributes) &&
        nested.every((n) => n.type === "list" && list(n as Tokens.List, indent + 1))
      );
    });
  for (const token of tokens) {
    let ok: boolean;
    switch (token.type) {
      case "space":
        ok = true;
        break;
      case "paragraph":
        ok = line((token as Tokens.Paragraph).tokens, {});
        break;
      case "heading":
        ok = line((token as Tokens.Heading).tokens, { header: (token as Tokens.Heading).depth });
        break;
      case "blockquote": {
        // A quote in Quill is a line format: one paragraph, nothing nested.
        const [inner, ...rest] = (token as Tokens.Blockquote).tokens;
        ok = rest.length === 0 && inner?.type === "paragraph" && line((inner as Tokens.Paragraph).tokens, { blockquote: true });
        break;
      }
      case "list":
        ok = list(token as Tokens.List, 0);
        break;
      case "code": {
        // The lines between the fences (marked's text doubles a trailing blank line's newline).
        const lines = /^(`{3,}|~{3,})[^\n]*\n([\s\S]*)\n\1$/.exec(token.raw.trimEnd())?.[2];
        ok = lines !== undefined;
        for (const text of lines?.split("\n") ?? [])
          ops.push(...(text ? [{ insert: text }] : []), { insert: "\n", attributes: { "code-block": "plain" } });
        break;
      }
      default:
        ok = false; // hr, def (link reference definitions) and the constructs with reasons
    }
    if (!ok) return null;
  }
  return ops;
}

export function inlineRuns(tokens: Token[], formats: Omit<Run, "text"> = {}, runs: Run[] = []): Run[] | null {
  for (const token of tokens) {
    let ok = true;
    switch (token.type) {
      case "text":
      case "escape":
        // HTML collapses a line ending inside a paragraph into a space.
        runs.push({ ...formats, text: token.text.replace(/\n/g, " ") });
        break;
      case "codespan":
        runs.push({ ...formats, code: true, text: (token as Tokens.Codespan).text });
        break;
      case "strong":
        ok = !!inlineRuns((token as Tokens.Strong).tokens, { ...formats, bold: true }, runs);
        break;
      case "em":
        ok = !!inlineRuns((token as Tokens.Em).tokens, { ...formats, italic: true }, runs);
        break;
      case "del":
        ok = !!inlineRuns((token as Tokens.Del).tokens, { ...formats, strike: true }, runs);
        break;
      case "link": {
        // The page shows an unsafe link as its text; Quill keeps a link's address, not its title.
        const link = token as Tokens.Link;
        const href = safeUrl(link.href);
        ok = !!href && !link.title && !formats.link && !!inlineRuns(link.tokens, { ...formats, link: href }, runs);
        break;
      }
      default:
        ok = false;
    }
    if (!ok) return null;
  }
  return runs;
}
