import { type DeltaOp, type Layout, layoutOf, type Run, runOf } from "./delta";
import { inlineMarkdown } from "./inline-writer";

/**
 * Writing Markdown from Quill's document model, block by block: the Delta ops split into lines,
 * lines grouped into blocks (headings, quotes, lists, fenced code, paragraphs), and the blocks
 * joined with the separators of the text they were loaded from where those still hold. Each
 * line's text is written by inline-writer.ts.
 */

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
      const code = lines
        .slice(i, end)
        .map((line) => line.runs.map((run) => run.text).join(""))
        .join("\n");
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
      if (blockKind(blocks[j]!) === blockKind(old[j]!) && blockKind(blocks[j + 1]!) === blockKind(old[j + 1]!))
        separators[j] = layout.separators[j]!;
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

/** A block's kind by its start; an ordered list item has at most 9 digits (CommonMark), more is a paragraph. */
function blockKind(block: string): string {
  return /^(#{1,6} |> |- |\d{1,9}\. |```)/.exec(block)?.[1]?.replace(/\d+/, "1") ?? "paragraph";
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
