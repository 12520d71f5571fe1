import { marked } from "marked";
import TurndownService from "turndown";

/**
 * Details are stored as Markdown. The rich editor works in HTML, so its content is converted
 * on the way in (Markdown → HTML; Quill keeps only what its formats allow) and on the way out
 * (HTML → Markdown) before saving.
 */
export function markdownToHtml(markdown: string): string {
  return marked.parse(markdown, { async: false, gfm: true }) as string;
}

const turndown = new TurndownService({ headingStyle: "atx", bulletListMarker: "-", codeBlockStyle: "fenced", emDelimiter: "*" });

export function htmlToMarkdown(html: string): string {
  // Quill's empty document is a single empty paragraph.
  if (/^<p>(<br\s*\/?>)?<\/p>$/.test(html.trim())) return "";
  return turndown.turndown(html.replaceAll("&nbsp;", " ")).trim();
}
