import { Lexer, type Token, type Tokens } from "marked";
import { safeUrl } from "../lib/markdown";

/**
 * The rich details editor and Markdown. Quill holds a note's details as lines (paragraphs,
 * headings, quotes, list items, code lines) of text runs with a few formats (bold, italic,
 * strikethrough, inline code, link), and the editor saves them as Markdown written by
 * `writeMarkdown` in one canonical form. A note whose Markdown is not already in that form
 * would come back changed (a table flattened into paragraphs, a task list's boxes dropped), so
 * `richModeRefusal` sends it to the Markdown editor instead, with the reason.
 *
 * That check is cheap and needs no Quill: marked's lexer, then a model of what Quill makes of
 * the rendered Markdown (`tokensToDelta`), written back with the same writer. The rich editor
 * checks again with Quill itself before it takes a text (markdown-convert.ts), and
 * tests/dom/rich-mode.test.ts proves on a corpus that the two agree.
 */

export const RICH_MODE_REASONS = {
  table: "This note has a table; edit it as Markdown",
  taskList: "This note has a task list; edit it as Markdown",
  footnote: "This note has a footnote; edit it as Markdown",
  frontMatter: "This note has front matter; edit it as Markdown",
  html: "This note has HTML; edit it as Markdown",
  image: "This note has an image; edit it as Markdown",
  lineBreak: "This note has line breaks inside a paragraph; edit it as Markdown",
  other: "This note has Markdown the rich editor cannot keep; edit it as Markdown",
} as const;

/** The same options as the renderer in islands/lib/markdown.ts, so both see the same structure. */
const LEX_OPTIONS = { gfm: true, breaks: false } as const;

const FRONT_MATTER = /^(---|\+\+\+)[ \t]*\n[\s\S]*?\n\1[ \t]*(\n|$)/;
const FOOTNOTE = /\[\^[^\]\s]+\]/;

/**
 * Blank lines before the text and whitespace after it mean nothing in Markdown, and the rich
 * editor does not keep them: the text it is compared with, and what it saves after an edit.
 */
export function withoutEdgeWhitespace(markdown: string): string {
  return markdown.replace(/^(?:[ \t]*\n)+/, "").trimEnd();
}

/** Undefined when the rich editor keeps this Markdown exactly; otherwise the reason to show. */
export function richModeRefusal(markdown: string): string | undefined {
  const source = withoutEdgeWhitespace(markdown);
  if (source === "") return undefined;
  if (FRONT_MATTER.test(source)) return RICH_MODE_REASONS.frontMatter;
  const tokens = Lexer.lex(source, LEX_OPTIONS);
  const construct = constructWithAReason(tokens);
  if (construct) return construct;
  // Everything else the editor could show, but it must also write it back character for character:
  // each block as it is, the blank lines between them kept (see joinSeparators).
  const ops = tokensToDelta(tokens);
  const blocks = layoutOf(source, tokens).blocks;
  const written = ops && deltaToBlocks(ops);
  return written && written.length === blocks.length && written.every((block, i) => block === blocks[i]) ? undefined : RICH_MODE_REASONS.other;
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
    const children = token.type === "list" ? (token as Tokens.List).items : "tokens" in token ? (token.tokens as Token[] | undefined) : undefined;
    const found = children && constructWithAReason(children);
    if (found) return found;
  }
  return undefined;
}

/* ---------- Quill's document model ---------- */

/** A Quill Delta operation, as `quill.getContents().ops` gives them. */
export interface DeltaOp {
  insert?: unknown;
  attributes?: Record<string, unknown>;
}

/** A run of text with its inline formats. */
interface Run {
  text: string;
  bold?: true;
  italic?: true;
  strike?: true;
  code?: true;
  link?: string;
  /** Its place in the line, to name it when a format must be dropped. */
  id?: number;
}
type RunFormat = "link" | "bold" | "italic" | "strike" | "code";
/** On a tie, the order formats nest in: a link outside the others ("[**a**](u)", whose delimiters always count). */
const FORMATS: RunFormat[] = ["link", "bold", "italic", "strike", "code"];
const DELIMITERS = { bold: "**", italic: "*", strike: "~~" } as const;

function runOf(text: string, attributes: Record<string, unknown> = {}): Run {
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
function tokensToDelta(tokens: Token[]): DeltaOp[] | null {
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
      return line((first as Tokens.Text).tokens ?? [], attributes) && nested.every((n) => n.type === "list" && list(n as Tokens.List, indent + 1));
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
        for (const text of lines?.split("\n") ?? []) ops.push(...(text ? [{ insert: text }] : []), { insert: "\n", attributes: { "code-block": "plain" } });
        break;
      }
      default:
        ok = false; // hr, def (link reference definitions) and the constructs with reasons
    }
    if (!ok) return null;
  }
  return ops;
}

function inlineRuns(tokens: Token[], formats: Omit<Run, "text"> = {}, runs: Run[] = []): Run[] | null {
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

/* ---------- Writing Markdown ---------- */

interface Line {
  runs: Run[];
  attributes: Record<string, unknown>;
}

function linesOf(ops: DeltaOp[]): Line[] {
  const lines: Line[] = [];
  let runs: Run[] = [];
  for (const op of ops) {
    if (typeof op.insert !== "string") continue; // no embeds: the editor allows none
    op.insert.split("\n").forEach((text, index) => {
      if (index > 0) {
        lines.push({ runs, attributes: op.attributes ?? {} });
        runs = [];
      }
      if (text) runs.push(runOf(text, op.attributes));
    });
  }
  if (runs.length > 0) lines.push({ runs, attributes: {} });
  return lines;
}

/**
 * The Markdown the rich editor saves for a Quill document, given the layout of the Markdown it
 * was loaded from or last saved (see deltaToBlocks and joinSeparators), and the layout of what it
 * wrote, for the next edit.
 */
export function writeMarkdown(ops: DeltaOp[], layout?: Layout): { markdown: string; layout: Layout } {
  const blocks = deltaToBlocks(ops);
  const separators = joinSeparators(blocks, layout);
  return { markdown: blocks.map((block, j) => (j > 0 ? separators[j - 1] : "") + block).join(""), layout: { blocks, separators } };
}

/**
 * The blocks the rich editor writes for a Quill document:
 * "#" headings, "> " quotes, "-" and "1." lists nested under their item's text, fenced code,
 * "**", "*", "~~" and "`" inline, and only the backslash escapes the text needs. Whatever
 * Markdown cannot hold where it is gets the nearest thing that keeps the text: empty lines are
 * dropped, spaces collapse as they would on the page, a format CommonMark would not read against
 * a neighbouring letter is left out rather than written as stray asterisks.
 */
export function deltaToBlocks(ops: DeltaOp[]): string[] {
  const lines = linesOf(ops);
  const blocks: string[] = [];
  for (let i = 0; i < lines.length; ) {
    const attributes = lines[i]!.attributes;
    let end = i + 1;
    if (attributes["code-block"]) {
      while (end < lines.length && lines[end]!.attributes["code-block"]) end++;
      const code = lines.slice(i, end).map((line) => line.runs.map((run) => run.text).join("")).join("\n");
      if (code.trim()) blocks.push(fencedCode(code));
    } else if (attributes.list) {
      while (end < lines.length && lines[end]!.attributes.list) end++;
      blocks.push(...listBlocks(lines.slice(i, end)));
    } else {
      const header = Number(attributes.header) || 0;
      const text = inlineMarkdown(lines[i]!.runs, header > 0);
      if (text) blocks.push(header ? `${"#".repeat(header)} ${text}` : attributes.blockquote ? `> ${text}` : text);
    }
    i = end;
  }
  return blocks;
}

/**
 * Blocks are parted by a blank line, except where the text they were loaded from parted the same
 * blocks (or blocks of the same kinds, edited) otherwise: "# Title" and its text on the next line
 * stay so. Each kept separator is read back: it must still part the same two blocks.
 */
function joinSeparators(blocks: string[], layout: Layout | undefined): string[] {
  const separators = blocks.slice(1).map(() => "\n\n");
  if (!layout || blocks.length < 2) return separators;
  const old = layout.blocks;
  if (old.length === blocks.length) {
    for (let j = 0; j + 1 < blocks.length; j++) {
      if (blockKind(blocks[j]!) === blockKind(old[j]!) && blockKind(blocks[j + 1]!) === blockKind(old[j + 1]!)) separators[j] = layout.separators[j]!;
    }
  } else {
    // Blocks added or removed: keep the separators within the unchanged start and end.
    const shorter = Math.min(old.length, blocks.length);
    let prefix = 0;
    while (prefix < shorter && blocks[prefix] === old[prefix]) prefix++;
    let suffix = 0;
    while (suffix < shorter - prefix && blocks[blocks.length - 1 - suffix] === old[old.length - 1 - suffix]) suffix++;
    for (let j = 0; j + 1 < prefix; j++) separators[j] = layout.separators[j]!;
    for (let k = 0; k + 1 < suffix; k++) separators[blocks.length - 2 - k] = layout.separators[old.length - 2 - k]!;
  }
  return separators.map((separator, j) => {
    if (separator === "\n\n") return separator;
    const reread = layoutOf(blocks[j] + separator + blocks[j + 1]).blocks;
    return reread.length === 2 && reread[0] === blocks[j] && reread[1] === blocks[j + 1] ? separator : "\n\n";
  });
}

function blockKind(block: string): string {
  return /^(#{1,6} |> |- |\d+\. |```)/.exec(block)?.[1]?.replace(/\d+/, "1") ?? "paragraph";
}

/** Consecutive list lines: a list per kind at each level, nested lists under their item's text. */
function listBlocks(lines: Line[]): string[] {
  const blocks: string[] = [];
  let items: string[] = [];
  // The item each level is in: its list's kind, its number, the width of its marker.
  const path: { kind: string; number: number; width: number }[] = [];
  for (const line of lines) {
    const text = inlineMarkdown(line.runs, false);
    if (!text) continue; // an empty item is nothing
    const type = String(line.attributes.list);
    const kind = type === "ordered" ? "ordered" : "bullet";
    // Markdown nests one level at a time.
    const level = Math.min(Number(line.attributes.indent) || 0, path.length);
    path.length = level + 1;
    if (path[level] && path[level]!.kind !== kind) {
      // Another kind of list at this level starts a new list.
      if (level === 0) {
        blocks.push(items.join("\n"));
        items = [];
      }
      path[level] = undefined!;
    }
    const number = (path[level]?.number ?? 0) + 1;
    const marker = kind === "ordered" ? `${number}.` : "-";
    const indent = path.slice(0, level).reduce((width, item) => width + item.width, 0);
    path[level] = { kind, number, width: marker.length + 1 };
    // Quill's checklists (only from a paste) are written as a task list, never silently dropped.
    const box = type === "checked" ? "[x] " : type === "unchecked" ? "[ ] " : "";
    items.push(`${" ".repeat(indent)}${marker} ${box}${text}`);
  }
  if (items.length > 0) blocks.push(items.join("\n"));
  return blocks;
}

function fencedCode(code: string): string {
  // A fence longer than any run of backticks that starts a line of the code.
  const longest = Math.max(2, ...[...code.matchAll(/^ {0,3}(`{3,})/gm)].map((m) => m[1]!.length));
  const fence = "`".repeat(longest + 1);
  return `${fence}\n${code}\n${fence}`;
}

/**
 * One line's text: whitespace collapsed and trimmed (as the page shows it), then written and
 * read back with marked, in steps that give up less and less: a format that cannot be written
 * where it is (see canDelimit) is left out; if the line still reads back differently
 * (delimiters of neighbouring formats running together, a bare address running into the next
 * text), bold, italic and strikethrough go, then links are written in brackets, and at the last
 * every punctuation character is escaped. The text is never lost.
 */
function inlineMarkdown(lineRuns: Run[], inHeading: boolean): string {
  // Typing changes one line: the others are written as before (reading back is what costs).
  const key = (inHeading ? "h" : "p") + JSON.stringify(lineRuns);
  let markdown = writtenLines.get(key);
  if (markdown === undefined) {
    if (writtenLines.size > 10_000) writtenLines.clear();
    markdown = writeInline(lineRuns, inHeading);
    writtenLines.set(key, markdown);
  }
  return markdown;
}
const writtenLines = new Map<string, string>();

function writeInline(lineRuns: Run[], inHeading: boolean): string {
  let runs = withAddressesAsLinks(normalizedRuns(lineRuns)).map((run, id) => ({ ...run, id }));
  const write = (candidate: Run[], bareLinks: boolean) => {
    const failures: { id: number; format: RunFormat }[] = [];
    const context = { inHeading, inLinkText: false, bareLinks, before: undefined, after: undefined, failures };
    return { markdown: nested(candidate, FORMATS, context), failures };
  };
  for (;;) {
    const { markdown, failures } = write(runs, true);
    if (failures.length === 0) {
      if (readsBack(markdown, runs)) return markdown;
      break;
    }
    runs = runs.map((run) => {
      const dropped = failures.filter((failure) => failure.id === run.id);
      return dropped.length ? { ...run, ...Object.fromEntries(dropped.map((failure) => [failure.format, undefined])) } : run;
    });
  }
  const withoutEmphasis = runs.map((run) => ({ ...run, bold: undefined, italic: undefined, strike: undefined }));
  for (const bareLinks of [true, false]) {
    const { markdown } = write(withoutEmphasis, bareLinks);
    if (readsBack(markdown, withoutEmphasis)) return markdown;
  }
  // Any ASCII punctuation may be escaped, and escaped it starts nothing (not even a bare link).
  return runs.map((run) => run.text).join("").replace(/[!-/:-@[-`{-~]/g, "\\$&");
}

/**
 * Web and e-mail addresses in plain text: GFM makes them links when the Markdown is read, so they
 * are written as the links they will be (unescaped, as a link's text is).
 */
function withAddressesAsLinks(runs: Run[]): Run[] {
  return runs.flatMap((run) => {
    if (run.link !== undefined || run.code || !/:\/\/|www\.|@/.test(run.text)) return [run];
    const pieces: Run[] = [];
    let emitted = 0; // the text before this index is in pieces
    let position = 0;
    for (const word of run.text.split(/(\s+)/)) {
      let offset = position;
      position += word.length;
      if (!/:\/\/|www\.|@/.test(word)) continue;
      for (const token of Lexer.lexInline(word, LEX_OPTIONS)) {
        const link = token as Tokens.Link;
        const href = token.type === "link" && link.raw === link.text ? safeUrl(link.href) : undefined;
        if (href) {
          if (offset > emitted) pieces.push({ ...run, text: run.text.slice(emitted, offset) });
          pieces.push({ ...run, text: link.raw, link: href });
          emitted = offset + link.raw.length;
        }
        offset += token.raw.length;
      }
    }
    if (emitted < run.text.length) pieces.push({ ...run, text: run.text.slice(emitted) });
    return pieces;
  });
}

/** Does marked read this Markdown as these runs? */
function readsBack(markdown: string, runs: Run[]): boolean {
  const parsed = inlineRuns(Lexer.lexInline(markdown, LEX_OPTIONS));
  if (!parsed) return false;
  const merged = normalizedRuns(parsed);
  const expected = normalizedRuns(runs);
  return merged.length === expected.length && merged.every((run, i) => run.text === expected[i]!.text && FORMATS.every((f) => run[f] === expected[i]![f]));
}

/**
 * Spaces collapsed and trimmed as the page shows them (inline code too: Quill reads the page's
 * HTML, where they collapse), neighbours with the same formats merged.
 */
function normalizedRuns(lineRuns: Run[]): Run[] {
  const runs: Run[] = [];
  let previousSpace = true; // the line's start: leading spaces go
  for (const run of lineRuns) {
    const text: string = run.text.replace(/[ \t\n]+/g, " ");
    const kept: string = previousSpace ? text.replace(/^ /, "") : text;
    if (!kept) continue;
    previousSpace = kept.endsWith(" ");
    const last = runs.at(-1);
    if (last && FORMATS.every((f) => last[f] === run[f])) last.text += kept;
    else runs.push({ text: kept, ...Object.fromEntries(FORMATS.filter((f) => run[f] !== undefined).map((f) => [f, run[f]])) });
  }
  const last = runs.at(-1);
  if (last) {
    last.text = last.text.replace(/ $/, "");
    if (!last.text) runs.pop();
  }
  return runs;
}

/** Stands for an element beside a stretch of text: its Markdown starts or ends with punctuation. */
const ELEMENT = "\uFFFC";

interface Context {
  inHeading: boolean;
  inLinkText: boolean;
  /** May a link whose text is its address be written bare? */
  bareLinks: boolean;
  /** The plain text beside this stretch of text: ELEMENT for an element, undefined at the line's edge. */
  before: string | undefined;
  after: string | undefined;
  /** Formats that could not be written where they are. */
  failures: { id: number; format: RunFormat }[];
}

/**
 * Writes runs as nested elements: the format spanning the most runs goes outside (so
 * "*a **b** c*" stays so), its stretches become elements, and the rest nests inside them.
 */
function nested(runs: Run[], formats: RunFormat[], context: Context): string {
  if (runs.length === 0) return "";
  const plain = (run: Run) => formats.every((f) => run[f] === undefined);
  const format = widestFormat(runs, formats);
  if (!format) return escapeMarkdownText(runs.map((run) => run.text).join(""), context);
  const inner = formats.filter((f) => f !== format);
  const parts: string[] = [];
  for (let start = 0; start < runs.length; ) {
    let end = start + 1;
    while (end < runs.length && runs[end]![format] === runs[start]![format]) end++;
    const group = runs.slice(start, end);
    const before = start === 0 ? context.before : plain(runs[start - 1]!) ? runs[start - 1]!.text : ELEMENT;
    const after = end === runs.length ? context.after : plain(runs[end]!) ? runs[end]!.text : ELEMENT;
    if (group[0]![format] === undefined) {
      parts.push(nested(group, inner, { ...context, before, after }));
    } else {
      parts.push(element(format, group, inner, { ...context, before, after }));
    }
    start = end;
  }
  // "!" just before a link would make it an image.
  return parts.reduce((out, part) => (part.startsWith("[") && /(^|[^\\])(\\\\)*!$/.test(out) ? `${out.slice(0, -1)}\\!${part}` : out + part), "");
}

/** The format set on the longest stretch of neighbouring runs (a link: the same address), ties in FORMATS order. */
function widestFormat(runs: Run[], formats: RunFormat[]): RunFormat | undefined {
  let best: RunFormat | undefined;
  let bestLength = 0;
  // Code goes innermost ("**`a`**", "[`a`](u)"): nothing but text can be inside a code span.
  for (const format of formats.filter((f) => f !== "code")) {
    let length = 0;
    runs.forEach((run, index) => {
      if (run[format] === undefined) return;
      let end = index;
      while (end < runs.length && runs[end]![format] === run[format]) end++;
      length = Math.max(length, end - index);
    });
    if (length > bestLength) [best, bestLength] = [format, length];
  }
  return best ?? (formats.includes("code") && runs.some((run) => run.code) ? "code" : undefined);
}

/** One element: its Markdown around the runs inside it, spaces at its edges moved outside. */
function element(format: RunFormat, group: Run[], inner: RunFormat[], context: Context): string {
  const text = group.map((run) => run.text).join("");
  // Spaces in code are its own (a code span keeps them).
  const leading = group[0]!.code ? "" : /^ */.exec(text)![0];
  const trailing = group.at(-1)!.code || text.length === leading.length ? "" : / *$/.exec(text)![0];
  if (leading.length === text.length || format === "code") {
    // marked cannot find a link's end past a code span holding a backtick: such code stays text there.
    if (format === "code") return context.inLinkText && text.includes("`") ? escapeMarkdownText(text, context) : codeSpan(text);
    return text; // only spaces: no element
  }
  const runs = group.map((run) => ({ ...run }));
  runs[0]!.text = runs[0]!.text.slice(leading.length);
  if (!runs[0]!.text) runs.shift();
  runs.at(-1)!.text = runs.at(-1)!.text.slice(0, runs.at(-1)!.text.length - trailing.length);
  if (!runs.at(-1)!.text) runs.pop();
  const before = leading ? " " : context.before;
  const after = trailing ? " " : context.after;
  let markdown: string;
  if (format === "link") {
    const href = group[0]!.link!;
    const bare = context.bareLinks && runs.length === 1 && inner.every((f) => runs[0]![f] === undefined) && isBareLink(runs[0]!.text, href, before, after);
    const content = nested(runs, inner, { ...context, inLinkText: true, before: ELEMENT, after: ELEMENT });
    markdown = bare ? runs[0]!.text : `[${content}](${linkDestination(href)})`;
  } else {
    // What touches the element's inside edges is judged against what is outside it: if the
    // element cannot keep its delimiters, they meet.
    const content = nested(runs, inner, { ...context, before, after });
    const delimiter = DELIMITERS[format];
    markdown = `${delimiter}${content}${delimiter}`;
    if (!canDelimit(delimiter, content, before, after)) context.failures.push(...runs.map((run) => ({ id: run.id!, format })));
  }
  return leading + markdown + trailing;
}

function codeSpan(text: string): string {
  let delimiter = "`";
  while (text.includes(delimiter)) delimiter += "`";
  // A space keeps a backtick at the edge apart from the delimiter (and is stripped when read).
  const pad = /^`|`$|^ .*[^ ].* $/.test(text) ? " " : "";
  return `${delimiter}${pad}${text}${pad}${delimiter}`;
}

const PUNCTUATION = /[\p{P}\p{S}]/u;
const isWordChar = (char: string | undefined) => char !== undefined && !/\s/.test(char) && !PUNCTUATION.test(char);

/**
 * Can "**", "*" or "~~" around this Markdown count as emphasis? Not with a letter outside and
 * punctuation inside ("a**(b)**" is plain text in CommonMark). `before`/`after` are the plain
 * characters beside the element, if any.
 */
function canDelimit(delimiter: string, inner: string, before: string | undefined, after: string | undefined): boolean {
  // Nested delimiters of the same character join this one's run ("***b***"): look past them.
  const family = `\\${delimiter[0]}+`;
  const first = inner.replace(new RegExp(`^${family}`), "")[0] ?? "";
  const last = inner.replace(new RegExp(`${family}$`), "").at(-1) ?? "";
  return !(isWordChar(before?.at(-1)) && PUNCTUATION.test(first)) && !(isWordChar(after?.[0]) && PUNCTUATION.test(last));
}

/**
 * May a link be written as its bare text, a URL or e-mail address that GFM turns into exactly
 * this link by itself? Only with a space or nothing before it and after it (trailing
 * punctuation aside).
 */
function isBareLink(text: string, href: string, before: string | undefined, after: string | undefined): boolean {
  // GFM leaves trailing punctuation out of a bare link: allowed after it before a space.
  const trailing = after === undefined ? "" : /^[.,:;!?]*(?=\s|$)/.exec(after)?.[0];
  if (!/^(https?:\/\/|www\.)|@/.test(text) || !/(^|\s)$/.test(before ?? "") || trailing === undefined) return false;
  const tokens = Lexer.lexInline(text + trailing, LEX_OPTIONS);
  const link = tokens[0];
  return link?.type === "link" && link.raw === text && safeUrl((link as Tokens.Link).href) === href;
}

/** As a link destination is written: parentheses escaped, in angle brackets if it has spaces. */
function linkDestination(href: string): string {
  const escaped = href.replace(/([<>()\\])/g, "\\$1");
  return escaped.includes(" ") ? `<${escaped}>` : escaped;
}

const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;
const WORD = /[\p{L}\p{N}]/u;
const SPACE = /\s/;

/**
 * Escapes the characters of a plain text that Markdown would read as syntax, and only those, so
 * that "snake_case", "2 * 3" or "[1]" stay as people write them. It sees one stretch of plain
 * text at a time, so whatever could combine with its neighbours (a "*" or "_" at either end, a
 * "<" before a letter) is escaped.
 */
function escapeMarkdownText(text: string, { inHeading = false, inLinkText = false } = {}): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    const prev = text[i - 1];
    const next = text[i + 1];
    const spaced = prev !== undefined && next !== undefined && SPACE.test(prev) && SPACE.test(next);
    let escape = false;
    switch (char) {
      case "\\":
        escape = next === undefined || ASCII_PUNCTUATION.test(next);
        break;
      case "`":
        escape = true;
        break;
      case "*":
      case "~":
        escape = !spaced;
        break;
      case "_":
        escape = !spaced && !(prev !== undefined && next !== undefined && WORD.test(prev) && WORD.test(next));
        break;
      // Link text must not hold a bracket of its own.
      case "[":
        escape = inLinkText || next === "^";
        break;
      case "]":
        escape = inLinkText || next === "(" || next === ":";
        break;
      case "<":
        escape = next === undefined || /[A-Za-z/!?]/.test(next);
        break;
      case "&":
        escape = /^&(#\d{1,7}|#x[0-9a-f]{1,6}|[a-z][a-z0-9]{1,31});/i.test(text.slice(i));
        break;
    }
    out += escape ? `\\${char}` : char;
  }
  // A heading's text ending in " #" would lose those hashes as the heading's closing sequence.
  out = out.replace(/(^|\s)(#+)$/, "$1\\$2");
  return inHeading ? out : escapeLineStart(out);
}

/** What would start a block at the beginning of a line: a heading, quote, list item or rule. */
function escapeLineStart(text: string): string {
  if (/^(-[ \t]*){3,}$/.test(text)) return `\\${text}`;
  const match = /^(#{1,6}|[-+]|\d{1,9}[.)])(?=\s|$)/.exec(text) ?? /^>/.exec(text);
  if (!match) return text;
  const marker = match[0];
  // "1." becomes "1\.", "#" becomes "\#".
  return /^\d/.test(marker) ? `${marker.slice(0, -1)}\\${text.slice(marker.length - 1)}` : `\\${text}`;
}
