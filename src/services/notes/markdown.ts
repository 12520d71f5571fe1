import katex from "katex";
import { Marked } from "marked";
import sanitizeHtml from "sanitize-html";
import { mathExtension } from "../../../islands/lib/markdown-math";
import type { MathRenderer } from "../../../islands/lib/math-syntax";
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

// KaTeX's markup is not for the sanitizer's allow-list: math is rendered to a placeholder
// (private-use characters, removed from the input first), the rest sanitized, then the
// placeholders replaced by KaTeX's HTML.
const SLOT = /\uE030(\d+)\uE031/g;
let typeset: string[] | undefined;
const markdown = new Marked({ gfm: true, breaks: false }).use(
  mathExtension(() => (tex, display) => {
    if (!typeset) return "";
    typeset.push(renderMathWithKatex(tex, display));
    return `\uE030${typeset.length - 1}\uE031`;
  }),
);

/**
 * Note details are stored as Markdown (the canonical form). This renders them to HTML that is
 * safe to put in a page: raw HTML in the Markdown is filtered to a small allow-list, links keep
 * only http(s), mailto and relative targets, and math ($…$, $$…$$) is typeset by KaTeX.
 */
export function renderMarkdownSafely(source: string): string {
  const slots: string[] = [];
  typeset = slots;
  let html: string;
  try {
    html = markdown.parse(source.replace(/[\uE030\uE031]/g, ""), { async: false }) as string;
  } finally {
    typeset = undefined;
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
    ],
    allowedAttributes: { a: ["href", "title"], img: ["src", "alt", "title"], ol: ["start"], p: ["class"] },
    allowedClasses: { p: ["math-display"] },
    allowedSchemes: ["http", "https", "mailto"],
    allowedSchemesAppliedToAttributes: ["href", "src"],
    allowProtocolRelative: false,
    transformTags: { a: sanitizeHtml.simpleTransform("a", { rel: "noopener noreferrer" }) },
  }).replace(SLOT, (_slot, index: string) => slots[Number(index)] ?? "");
}

/** A note's details as safe HTML: their text, without the properties at the top (note-properties.ts). */
export const renderNoteDetailsSafely = (details: string) => renderMarkdownSafely(detailsBody(details));
