import TurndownService from "turndown";
import { renderMarkdownSafely } from "../lib/markdown";

/**
 * Details are stored as Markdown. The rich editor works in HTML, so its content is converted
 * on the way in (Markdown → HTML; Quill keeps only what its formats allow) and on the way out
 * (HTML → Markdown) before saving.
 */
export function markdownToHtml(markdown: string): string {
  // Raw HTML in the Markdown stays text: this HTML goes into the live page before Quill reads it.
  return renderMarkdownSafely(markdown);
}

const turndown = new TurndownService({ headingStyle: "atx", bulletListMarker: "-", codeBlockStyle: "fenced", emDelimiter: "*" });

export function htmlToMarkdown(html: string): string {
  // Quill's empty document is a single empty paragraph.
  if (/^<p>(<br\s*\/?>)?<\/p>$/.test(html.trim())) return "";
  return turndown.turndown(html.replaceAll("&nbsp;", " ")).trim();
}
