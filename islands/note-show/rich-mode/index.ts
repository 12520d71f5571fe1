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
 *
 * The files, each importing only those below it:
 * - refusal.ts: `RICH_MODE_REASONS` and `richModeRefusal`, the check;
 * - markdown-writer.ts: `writeMarkdown`, the model → Markdown block by block, with the layout kept;
 * - inline-writer.ts: one line's runs → inline Markdown, read back until it holds;
 * - escaping.ts: backslash escapes for plain text;
 * - delta.ts: the shared model (Delta ops, runs and their formats, a text's layout) and
 *   Markdown → the model Quill would hold (`tokensToDelta`).
 * This file re-exports what the rest of the code uses.
 */

export { type Layout, layoutOf, withoutEdgeWhitespace } from "./delta";
export { writeMarkdown } from "./markdown-writer";
export { RICH_MODE_REASONS, richModeRefusal } from "./refusal";
