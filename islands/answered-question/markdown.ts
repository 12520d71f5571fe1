import { Marked, type Tokens } from "marked";

/**
 * Question stems, choices and note details are Markdown written by people or by an AI. They are
 * rendered in the browser without a sanitiser, so raw HTML is shown as text (never parsed) and
 * links and images keep only http(s), mailto and relative targets.
 */
const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** The browser decodes character references in attributes and drops control characters in schemes. */
function asBrowserReads(url: string): string {
  return url
    .replace(/&#(x[0-9a-f]+|\d+);?/gi, (_, n: string) => {
      const code = n[0] === "x" || n[0] === "X" ? parseInt(n.slice(1), 16) : parseInt(n, 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "";
    })
    .replace(/[\u0000-\u0020\u007f-\u009f]/g, "");
}

function isSafeUrl(url: string): boolean {
  const read = asBrowserReads(url);
  if (/^(https?|mailto):/i.test(read)) return true;
  if (/^[a-z][a-z0-9+.-]*:/i.test(read)) return false;
  // A relative URL with a named reference (&colon;) could still become a scheme.
  return !read.includes("&") && !/^[\\/][\\/]/.test(read);
}

const marked = new Marked({
  gfm: true,
  breaks: false,
  renderer: {
    html: ({ text }: Tokens.HTML | Tokens.Tag) => escapeHtml(text),
  },
  walkTokens(token) {
    if ((token.type === "link" || token.type === "image") && !isSafeUrl((token as Tokens.Link).href)) {
      (token as Tokens.Link).href = "#";
    }
  },
});

/** Block Markdown (paragraphs, lists...) as safe HTML, for stems and note details. */
export function markdownToSafeHtml(markdown: string): string {
  return marked.parse(markdown, { async: false }) as string;
}

/** Inline Markdown as safe HTML, for text inside buttons (choices). */
export function inlineMarkdownToSafeHtml(markdown: string): string {
  return marked.parseInline(markdown, { async: false }) as string;
}
