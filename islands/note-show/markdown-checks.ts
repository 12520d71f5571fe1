/**
 * What the note page needs marked (about 14 KB compressed) for: whether rich mode may take a
 * Markdown text, and Markdown rendered as HTML. Fetched by use-markdown-checks.ts only when the
 * details are edited as Markdown or change after the page loaded; the server has it at once.
 */
export { renderMarkdownSafely } from "../lib/markdown";
export { richModeRefusal } from "./rich-mode";
