import { Marked } from "marked";
import { detailsBody } from "../../src/services/notes/note-properties";
import { mathExtension } from "./markdown-math";
import { currentMathRenderer } from "./math-syntax";
import { embedHtml, isVaultPath, vaultEmbedExtension } from "./vault-embeds";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  colon: ":",
  tab: "\t",
  newline: "\n",
  sol: "/",
  period: ".",
  lpar: "(",
  rpar: ")",
  num: "#",
  percnt: "%",
  quest: "?",
  equals: "=",
};

/** Decodes the character references a browser would decode in an attribute, so we check what it will follow. */
function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);?/gi, (whole, ref: string) => {
    if (ref[0] !== "#") return NAMED_ENTITIES[ref.toLowerCase()] ?? whole;
    const code = ref[1] === "x" || ref[1] === "X" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "";
  });
}

const SAFE_SCHEMES = new Set(["http", "https", "mailto"]);

/** The URL to put in the page, or undefined for a scheme other than http(s) and mailto (javascript:, data:...). */
export function safeUrl(href: string): string | undefined {
  const url = decodeEntities(href).trim();
  // Browsers ignore control characters and whitespace inside a scheme ("java\tscript:").
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters browsers skip are removed before reading the scheme.
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url.replace(/[\u0000-\u0020\u007f]/g, ""));
  return !scheme || SAFE_SCHEMES.has(scheme[1]!.toLowerCase()) ? url : undefined;
}

/**
 * Raw HTML is shown as text, except bare <sub> and <sup> tags (no attributes): imported notes
 * keep them for what Unicode cannot write (xᵗʰ has no superscript "t").
 */
const KEPT_TAGS = /&lt;(\/?)(sub|sup)&gt;/gi;
const rawHtml = (text: string) =>
  escapeHtml(text).replace(KEPT_TAGS, (_tag, slash: string, name: string) => `<${slash}${name.toLowerCase()}>`);

/*
 * Note details, question stems and choices are Markdown written by people or an AI, rendered in
 * the browser without the server's sanitiser: raw HTML is shown as text (but <sub>/<sup>), links
 * and images keep only http(s), mailto and relative URLs, and math is typeset (markdown-math.ts).
 */
/** The note whose details are being rendered, while they are (its embeds are asked of it). */
let embeddingNoteId: number | undefined;

const markdown = new Marked({
  gfm: true,
  breaks: false,
  extensions: [vaultEmbedExtension(() => embeddingNoteId)],
  renderer: {
    html: ({ text }) => rawHtml(text),
    link({ href, title, tokens }) {
      const text = this.parser.parseInline(tokens);
      const url = safeUrl(href);
      if (url === undefined) return text;
      const titleAttribute = title ? ` title="${escapeHtml(title)}"` : "";
      return `<a href="${escapeHtml(url)}"${titleAttribute} rel="noopener noreferrer">${text}</a>`;
    },
    image({ href, title, text }) {
      if (embeddingNoteId !== undefined && isVaultPath(href)) {
        let target = href;
        try {
          target = decodeURI(href);
        } catch {
          // kept as written
        }
        const embed = embedHtml(embeddingNoteId, target, text || undefined);
        if (embed) return embed;
      }
      const url = safeUrl(href);
      if (url === undefined) return escapeHtml(text);
      const titleAttribute = title ? ` title="${escapeHtml(title)}"` : "";
      return `<img src="${escapeHtml(url)}" alt="${escapeHtml(text)}"${titleAttribute} referrerpolicy="no-referrer">`;
    },
  },
  // KaTeX once math.ts has loaded it (a page without math never does); until then math shows as its TeX.
}).use(mathExtension(currentMathRenderer));

/**
 * Markdown to HTML that is safe to insert into the page; the same on the server and in the
 * browser. With `noteId` (a note's own details), its Obsidian embeds show their files.
 */
export function renderMarkdownSafely(source: string, options: { noteId?: number } = {}): string {
  embeddingNoteId = options.noteId;
  try {
    return markdown.parse(source, { async: false }) as string;
  } finally {
    embeddingNoteId = undefined;
  }
}

/** Inline Markdown (no paragraphs) as safe HTML, for text inside buttons such as question choices. */
export function renderInlineMarkdownSafely(source: string): string {
  return markdown.parseInline(source, { async: false }) as string;
}

/** A note's details as safe HTML: their text, without the properties at the top (shown apart); with the note's id, its embeds show their files. */
export function renderNoteDetailsSafely(details: string, options: { noteId?: number } = {}): string {
  return renderMarkdownSafely(detailsBody(details), options);
}

/** Whether marked reads math in this Markdown (exact, unlike math-syntax.ts's quick test: code spans and escapes as marked sees them). */
export function readsAsMath(source: string): boolean {
  if (!source.includes("$")) return false;
  let found = false;
  markdown.walkTokens(markdown.lexer(source), (token) => {
    if (token.type === "math" || token.type === "mathBlock") found = true;
  });
  return found;
}
