/**
 * Anki field HTML as Markdown (details) and as plain text (titles), with turndown (HTML →
 * Markdown, on its DOM parser domino) and rules for what Anki fields hold:
 * - `<style>`, `<script>`, images and `[sound:…]` go (images and sounds are reported elsewhere);
 * - a line break starts a paragraph (a hard break inside a list item);
 * - `<ruby>漢字<rt>かんじ</rt></ruby>` reads `漢字(かんじ)`;
 * - `<sub>`/`<sup>` become Unicode sub/superscripts when every character has one (H₂O, x²),
 *   otherwise they stay as `<sub>`/`<sup>` (the Markdown renderers allow those two tags);
 * - tables become GFM tables (Anki's have no header row: the first row is the header);
 * - `<pre>` becomes a fenced code block, links keep their URL;
 * - MathJax `\(…\)` and `\[…\]` (and Anki's `[$]…[/$]`, `[$$]…[/$$]`) become `$…$` and `$$…$$`;
 * - text that looks like Markdown or HTML stays text: `&lt;script&gt;` is the literal `<script>`,
 *   written `\<script>`, and `$`, `*`, `_`… are escaped.
 */
import { createDocument } from "@mixmark-io/domino";
import TurndownService from "turndown";

const SUPERSCRIPTS: Record<string, string> = {
  "0": "⁰",
  "1": "¹",
  "2": "²",
  "3": "³",
  "4": "⁴",
  "5": "⁵",
  "6": "⁶",
  "7": "⁷",
  "8": "⁸",
  "9": "⁹",
  "+": "⁺",
  "-": "⁻",
  "−": "⁻",
  "=": "⁼",
  "(": "⁽",
  ")": "⁾",
  n: "ⁿ",
  i: "ⁱ",
};
const SUBSCRIPTS: Record<string, string> = {
  "0": "₀",
  "1": "₁",
  "2": "₂",
  "3": "₃",
  "4": "₄",
  "5": "₅",
  "6": "₆",
  "7": "₇",
  "8": "₈",
  "9": "₉",
  "+": "₊",
  "-": "₋",
  "−": "₋",
  "=": "₌",
  "(": "₍",
  ")": "₎",
  a: "ₐ",
  e: "ₑ",
  o: "ₒ",
  x: "ₓ",
  h: "ₕ",
  k: "ₖ",
  l: "ₗ",
  m: "ₘ",
  n: "ₙ",
  p: "ₚ",
  s: "ₛ",
  t: "ₜ",
};

/** The text in Unicode sub/superscripts, or undefined when a character has none. */
function scripted(text: string, tag: "sub" | "sup"): string | undefined {
  const table = tag === "sub" ? SUBSCRIPTS : SUPERSCRIPTS;
  const chars = [...text.trim()];
  if (chars.length === 0 || chars.some((char) => table[char] === undefined)) return undefined;
  return chars.map((char) => table[char]).join("");
}

// Math is set aside before the HTML is parsed (its TeX must not be escaped or reflowed) and put
// back as $…$ / $$…$$: slot i is written \uE010<i>\uE011 (private-use characters stay as they are).
const SLOT = /\uE010(\d+)\uE011/g;
const MATH = /\\\(([\s\S]*?)\\\)|\\\[([\s\S]*?)\\\]|\[\$\]([\s\S]*?)\[\/\$\]|\[\$\$\]([\s\S]*?)\[\/\$\$\]/g;
const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1]?.toLowerCase() === "x" ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

interface Prepared {
  html: string;
  math: { tex: string; display: boolean }[];
}

/** Sounds and the private-use slot characters removed, non-breaking spaces made plain, math set aside. */
function prepare(html: string): Prepared {
  const math: Prepared["math"] = [];
  const cleaned = html
    .replace(/[\uE010\uE011]/g, "")
    .replace(/\[sound:[^\]]*\]/g, "")
    .replace(/&nbsp;|\u00a0/gi, " ")
    .replace(MATH, (_whole, inline?: string, display?: string, dollar?: string, dollars?: string) => {
      const source = inline ?? display ?? dollar ?? dollars ?? "";
      // MathJax inside HTML: tags (line breaks an editor added) dropped, entities decoded.
      const tex = decodeEntities(source.replace(/<br\s*\/?>/gi, " ").replace(/<[^>]*>/g, "")).trim();
      math.push({ tex, display: display !== undefined || dollars !== undefined });
      return `\uE010${math.length - 1}\uE011`;
    });
  return { html: cleaned, math };
}

const restoreMath = (text: string, math: Prepared["math"]) =>
  text.replace(SLOT, (_whole, index: string) => {
    const entry = math[Number(index)];
    if (!entry) return "";
    const tex = entry.tex.replace(/\$/g, "\\$");
    return entry.display ? `$$${tex}$$` : `$${tex}$`;
  });

type Node = TurndownService.Node;

const BLOCK_TAGS = new Set([
  "ADDRESS",
  "ARTICLE",
  "ASIDE",
  "BLOCKQUOTE",
  "DD",
  "DIV",
  "DL",
  "DT",
  "FIGCAPTION",
  "FIGURE",
  "FOOTER",
  "H1",
  "H2",
  "H3",
  "H4",
  "H5",
  "H6",
  "HEADER",
  "HR",
  "LI",
  "OL",
  "P",
  "PRE",
  "SECTION",
  "TABLE",
  "TD",
  "TH",
  "TR",
  "UL",
]);
const DROPPED_TAGS = new Set(["STYLE", "SCRIPT", "TEMPLATE", "HEAD", "TITLE", "IMG", "AUDIO", "VIDEO", "OBJECT", "IFRAME", "RP"]);

/** The rows of a table element (its sections' rows included), in order. */
function tableRows(table: Node): Node[] {
  const rows: Node[] = [];
  const visit = (node: Node) => {
    for (const child of Array.from(node.childNodes) as Node[]) {
      if (child.nodeName === "TR") rows.push(child);
      else if (child.nodeName === "THEAD" || child.nodeName === "TBODY" || child.nodeName === "TFOOT") visit(child);
    }
  };
  visit(table);
  return rows;
}

const cellCount = (row: Node) =>
  (Array.from(row.childNodes) as Node[])
    .filter((cell) => cell.nodeName === "TD" || cell.nodeName === "TH")
    .reduce((sum, cell) => sum + Math.max(1, Number((cell as HTMLElement).getAttribute?.("colspan")) || 1), 0);

function closestTable(node: Node): Node | undefined {
  for (let current = node.parentNode as Node | null; current; current = current.parentNode as Node | null)
    if (current.nodeName === "TABLE") return current;
  return undefined;
}

function markdownService(): TurndownService {
  const service = new TurndownService({
    headingStyle: "atx",
    codeBlockStyle: "fenced",
    bulletListMarker: "-",
    emDelimiter: "*",
    strongDelimiter: "**",
  });
  const escapeMarkdown = service.escape.bind(service);
  // Literal text stays literal: no HTML tag, entity or math can come out of it.
  service.escape = (text: string) =>
    escapeMarkdown(text)
      .replace(/</g, "\\<")
      .replace(/&(?=#?[a-z0-9]+;)/gi, "\\&")
      .replace(/\$/g, "\\$");
  // An added rule, so it also wins over turndown's own image rule.
  service.addRule("dropped", { filter: (node) => DROPPED_TAGS.has(node.nodeName), replacement: () => "" });
  service.addRule("listItem", {
    filter: "li",
    replacement(content, node) {
      const parent = node.parentNode as HTMLElement | null;
      const ordered = parent?.nodeName === "OL";
      const start = Number(parent?.getAttribute?.("start")) || 1;
      const index = parent ? (Array.from(parent.children) as Node[]).indexOf(node) : 0;
      const prefix = ordered ? `${start + index}. ` : "- ";
      const body = content
        .replace(/^\n+/, "")
        .replace(/\n+$/, "\n")
        .replace(/\n/gm, `\n${" ".repeat(prefix.length)}`);
      return prefix + body + (node.nextSibling && !/\n$/.test(body) ? "\n" : "");
    },
  });
  // A line break starts a new paragraph (Engram's rich editor holds paragraphs, not breaks inside
  // one); inside a list item it stays a hard break.
  service.addRule("lineBreak", {
    filter: "br",
    replacement(_content, node) {
      for (let parent = node.parentNode as Node | null; parent; parent = parent.parentNode as Node | null)
        if (parent.nodeName === "LI") return "  \n";
      return "\n\n";
    },
  });
  service.addRule("ruby", { filter: "rt", replacement: (content) => (content.trim() ? `(${content.trim()})` : "") });
  service.addRule("subscript", {
    filter: ["sub", "sup"],
    replacement(content, node) {
      const tag = node.nodeName.toLowerCase() as "sub" | "sup";
      return scripted(node.textContent ?? "", tag) ?? `<${tag}>${content}</${tag}>`;
    },
  });
  service.addRule("preformatted", {
    filter: (node) => node.nodeName === "PRE" && node.firstChild?.nodeName !== "CODE",
    replacement(_content, node) {
      const text = (node.textContent ?? "").replace(/\n$/, "");
      const fence = "`".repeat(Math.max(3, ...[...text.matchAll(/`+/g)].map((m) => m[0].length + 1)));
      return `\n\n${fence}\n${text}\n${fence}\n\n`;
    },
  });
  service.addRule("tableCell", {
    filter: ["th", "td"],
    replacement(content, node) {
      const text = content
        .replace(/\s*\n+\s*/g, " ")
        .replace(/(?<!\\)\|/g, "\\|")
        .trim();
      const span = Math.max(1, Number((node as HTMLElement).getAttribute?.("colspan")) || 1);
      return ` ${text} |${" |".repeat(span - 1)}`;
    },
  });
  service.addRule("tableRow", {
    filter: "tr",
    replacement(content, node) {
      const table = closestTable(node);
      const rows = table ? tableRows(table) : [node];
      const columns = Math.max(1, ...rows.map(cellCount));
      const missing = columns - cellCount(node);
      let line = `|${content}${"  |".repeat(Math.max(0, missing))}\n`;
      if (rows[0] === node) line += `|${" --- |".repeat(columns)}\n`;
      return line;
    },
  });
  service.addRule("tableSection", { filter: ["thead", "tbody", "tfoot"], replacement: (content) => content });
  service.addRule("table", { filter: "table", replacement: (content) => `\n\n${content.replace(/^\n+|\n+$/g, "")}\n\n` });
  return service;
}

let service: TurndownService | undefined;

const parse = (html: string) => createDocument(`<!DOCTYPE html><html><body>${html}</body></html>`).body;

/** A field's HTML as Markdown (see the module comment for what becomes what). */
export function fieldToMarkdown(html: string): string {
  const prepared = prepare(html);
  service ??= markdownService();
  const markdown = service.turndown(parse(prepared.html) as unknown as HTMLElement);
  return restoreMath(markdown, prepared.math)
    .replace(/[ \t]+$/gm, (spaces) => (spaces.length >= 2 ? "  " : ""))
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** The text a reader sees in a node, blocks and line breaks as spaces. */
function textOf(node: Node): string {
  if (node.nodeType === 3) return node.nodeValue ?? "";
  if (node.nodeType !== 1 && node.nodeType !== 11 && node.nodeType !== 9) return "";
  const name = node.nodeName;
  if (DROPPED_TAGS.has(name)) return "";
  if (name === "BR") return " ";
  const inner = (Array.from(node.childNodes) as Node[]).map(textOf).join("");
  if (name === "RT") return inner.trim() ? `(${inner.trim()})` : "";
  if (name === "SUB" || name === "SUP") return scripted(inner, name === "SUB" ? "sub" : "sup") ?? inner;
  return BLOCK_TAGS.has(name) ? ` ${inner} ` : inner;
}

/** A field's HTML as one line of plain text (titles), math as $…$. */
export function fieldToText(html: string): string {
  const prepared = prepare(html);
  return restoreMath(textOf(parse(prepared.html) as unknown as Node), prepared.math)
    .replace(/\s+/g, " ")
    .trim();
}

/** The src of every <img> in a field, in order (entities decoded). */
export function imageSources(html: string): string[] {
  return [...html.matchAll(/<img[^>]*\bsrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi)].map((m) =>
    decodeEntities(m[1] ?? m[2] ?? m[3] ?? ""),
  );
}

/** The file names of a field's [sound:…] tags. */
export const soundNames = (html: string) => [...html.matchAll(/\[sound:([^\]]*)\]/g)].map((m) => m[1]!);
