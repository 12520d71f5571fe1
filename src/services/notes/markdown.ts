import katex from "katex";
import { Marked } from "marked";
import sanitizeHtml from "sanitize-html";
import { mathExtension } from "../../../islands/lib/markdown-math";
import type { MathRenderer } from "../../../islands/lib/math-syntax";
import { embedHtml, isVaultPath, vaultEmbedExtension } from "../../../islands/lib/vault-embeds";
import { detailsBody } from "./note-properties";

/**
 * Math typeset on the server with KaTeX (no script in the page for it; the page links KaTeX's
 * stylesheet when it has math). KaTeX escapes what it does not typeset, allows no \href or
 * \url (trust is off) and caps macro expansion; what it cannot parse shows as red source.
 */
export const renderMathWithKatex: MathRenderer = (tex, display) =>
  katex.renderToString(tex, { displayMode: display, throwOnError: false, strict: false, output: "htmlAndMathml" });

/** Whether rendered HTML holds typeset math (and so needs KaTeX's stylesheet). */
export const hasTypesetMath = (html: string) => html.includes('class="katex');

/** The note whose details are being rendered, while they are (its Obsidian embeds are asked of it). */
let embeddingNoteId: number | undefined;

// KaTeX's markup is not for the sanitizer's allow-list: math is rendered to a placeholder
// (private-use characters, removed from the input first), the rest sanitized, then the
// placeholders replaced by KaTeX's HTML.
const SLOT = /\uE030(\d+)\uE031/g;
let typeset: string[] | undefined;
const markdown = new Marked({
  gfm: true,
  breaks: false,
  extensions: [vaultEmbedExtension(() => embeddingNoteId)],
  renderer: {
    image({ href, text }) {
      if (embeddingNoteId === undefined || !isVaultPath(href)) return false;
      let target = href;
      try {
        target = decodeURI(href);
      } catch {
        // kept as written
      }
      return embedHtml(embeddingNoteId, target, text || undefined) ?? false;
    },
  },
}).use(
  mathExtension(() => (tex, display) => {
    if (!typeset) return "";
    typeset.push(renderMathWithKatex(tex, display));
    return `\uE030${typeset.length - 1}\uE031`;
  }),
);

/**
 * Note details are stored as Markdown (the canonical form). This renders them to HTML that is
 * safe to put in a page: raw HTML in the Markdown is filtered to a small allow-list, links keep
 * only http(s), mailto and relative targets, images carry referrerpolicy="no-referrer", and math
 * ($…$, $$…$$) is typeset by KaTeX. With `noteId` (a note's own details), its Obsidian embeds show
 * their files (islands/lib/vault-embeds.ts).
 */
export function renderMarkdownSafely(source: string, options: { noteId?: number } = {}): string {
  const slots: string[] = [];
  typeset = slots;
  embeddingNoteId = options.noteId;
  let html: string;
  try {
    html = markdown.parse(source.replace(/[\uE030\uE031]/g, ""), { async: false }) as string;
  } finally {
    typeset = undefined;
    embeddingNoteId = undefined;
  }
  return sanitizeHtml(html, {
    allowedTags: [
      "p",
      "br",
      "strong",
      "b",
      "em",
      "i",
      "u",
      "s",
      "sub",
      "sup",
      "del",
      "code",
      "pre",
      "blockquote",
      "ul",
      "ol",
      "li",
      "h1",
      "h2",
      "h3",
      "h4",
      "h5",
      "h6",
      "a",
      "img",
      "hr",
      "table",
      "thead",
      "tbody",
      "tr",
      "th",
      "td",
      "audio",
      "video",
    ],
    allowedAttributes: {
      a: ["href", "title", "class"],
      img: ["src", "alt", "title", "width", "height", "loading", "class", "referrerpolicy"],
      audio: ["src", "controls", "preload", "title", "class"],
      video: ["src", "controls", "preload", "title", "width", "height", "class"],
      ol: ["start"],
      p: ["class"],
    },
    allowedClasses: {
      p: ["math-display"],
      a: ["vault-embed-file"],
      img: ["vault-embed"],
      audio: ["vault-embed"],
      video: ["vault-embed"],
    },
    allowedSchemes: ["http", "https", "mailto"],
    allowedSchemesAppliedToAttributes: ["href", "src"],
    allowProtocolRelative: false,
    transformTags: {
      a: sanitizeHtml.simpleTransform("a", { rel: "noopener noreferrer" }),
      // An image from another host is fetched without telling it which note the reader is on.
      img: sanitizeHtml.simpleTransform("img", { referrerpolicy: "no-referrer" }),
    },
  }).replace(SLOT, (_slot, index: string) => slots[Number(index)] ?? "");
}

/** A note's details as safe HTML: their text, without the properties at the top (note-properties.ts). */
export const renderNoteDetailsSafely = (details: string, options: { noteId?: number } = {}) =>
  renderMarkdownSafely(detailsBody(details), options);
