import Quill, { Delta } from "quill";
import { renderMarkdownSafely } from "../lib/markdown";
import { type Layout, layoutOf, withoutEdgeWhitespace, writeMarkdown } from "./rich-mode";

export { RICH_MODE_REASONS } from "./rich-mode";

/**
 * Details are stored as Markdown. The rich editor works in HTML, so its content is converted
 * on the way in (Markdown → HTML → Quill's model, which keeps only the formats below) and on the
 * way out (Quill's model → Markdown, written by rich-mode/ in the one form it accepts back).
 */
export function markdownToHtml(markdown: string): string {
  // Raw HTML in the Markdown stays text: this HTML goes into the live page before Quill reads it.
  return renderMarkdownSafely(markdown);
}

/** The formats Markdown can hold: Quill drops every other one, typed, pasted or loaded. */
const RICH_FORMATS = ["bold", "italic", "strike", "code", "link", "header", "list", "indent", "blockquote", "code-block"];

/** The details editor's Quill: the bubble theme's floating toolbar, limited to Markdown's formats. */
export function createRichQuill(host: HTMLElement, { readonly, placeholder }: { readonly: boolean; placeholder: string }): Quill {
  const keyboardDefaults = (Quill.import("modules/keyboard") as { DEFAULTS: { bindings: Record<string, object> } }).DEFAULTS;
  const quill = new Quill(host, {
    theme: "bubble",
    placeholder,
    readOnly: readonly,
    formats: RICH_FORMATS,
    modules: {
      toolbar: [
        ["bold", "italic", "link"],
        [{ header: 1 }, { header: 2 }],
        [{ list: "ordered" }, { list: "bullet" }],
        ["code-block", "blockquote"],
      ],
      keyboard: {
        bindings: {
          // "[ ] " would start a checklist, which the note's Markdown would have to hold as a task list.
          "list autofill": { ...keyboardDefaults.bindings["list autofill"], prefix: /^\s*?(\d+\.|-|\*)$/ },
        },
      },
      // A pasted or dropped image would become a data: URL in the Markdown, which notes do not show.
      uploader: { handler: () => {} },
    },
  });
  // marked writes strikethrough as <del>, which Quill's clipboard does not know.
  quill.clipboard.addMatcher("DEL", (_node, delta) => delta.compose(new Delta().retain(delta.length(), { strike: true })));
  return quill;
}

/** Shows Markdown in the editor without a user change (so nothing is saved). */
export function setMarkdown(quill: Quill, markdown: string) {
  quill.setContents(quill.clipboard.convert({ html: markdownToHtml(markdown) }), "silent");
}

/**
 * The Markdown the editor saves for what it holds now, written from Quill's document model. The
 * layout of the Markdown it holds an edit of keeps that text's line breaks between blocks.
 */
export function editorMarkdown(quill: Quill, layout?: Layout): string {
  return writeMarkdown(quill.getContents().ops, layout).markdown;
}

/** editorMarkdown, and the layout of what it wrote, to keep for the next edit. */
export function editorMarkdownAndLayout(quill: Quill, layout?: Layout): { markdown: string; layout: Layout } {
  return writeMarkdown(quill.getContents().ops, layout);
}

/**
 * Does the editor hold this Markdown exactly, so that saving it unedited would change nothing?
 * The final guarantee behind rich-mode/'s cheaper check: the editor never takes a text it
 * cannot give back.
 */
export function holdsExactly(quill: Quill, markdown: string): boolean {
  const source = withoutEdgeWhitespace(markdown);
  return editorMarkdown(quill, layoutOf(source)) === source;
}

/** The layout of the Markdown the editor holds, kept so an edit keeps its blank lines. */
export function layoutFor(markdown: string): Layout {
  return layoutOf(withoutEdgeWhitespace(markdown));
}

/**
 * Where the reader clicked in the details before the editor was up: the count of visible
 * (non-whitespace) characters before the point, and whether a space came right before it.
 * "end" when the details were reached by keyboard (Tab): the caret goes after the text.
 */
export type CaretMark = { visible: number; afterSpace: boolean } | "end";

/** A key pressed while the editor was loading, replayed once it is up (DetailsEditor.tsx). */
export type PendingKey = { text: string } | { key: "Enter" | "Backspace" | "Delete" | "Home" | "End" | "ArrowLeft" | "ArrowRight" };

/** The editor index for a caret mark: the same visible characters before it. */
export function caretIndex(quill: Quill, mark: CaretMark): number {
  const text = quill.getText();
  const end = Math.max(0, text.length - 1); // before Quill's closing newline
  if (mark === "end") return end;
  let index = 0;
  for (let seen = 0; index < end && seen < mark.visible; index++) if (/\S/.test(text[index]!)) seen++;
  if (mark.afterSpace) while (index < end && text[index] === " ") index++;
  return index;
}

const INLINE_FORMATS = ["bold", "italic", "strike", "code", "link"];

/**
 * Applies the keys pressed while the editor was loading, at `index`, as the user's own edits
 * (so they are saved like typing). Text takes the inline formats around it, as typed text does.
 * Answers the caret's index after them.
 */
export function replayKeys(quill: Quill, index: number, keys: PendingKey[]): number {
  let at = index;
  for (const pending of keys) {
    const length = quill.getLength() - 1;
    if ("text" in pending) {
      const around = quill.getFormat(at, 0);
      const formats = Object.fromEntries(Object.entries(around).filter(([name]) => INLINE_FORMATS.includes(name)));
      quill.insertText(at, pending.text, formats, "user");
      at += pending.text.length;
    } else if (pending.key === "Enter") {
      quill.insertText(at, "\n", "user");
      at += 1;
    } else if (pending.key === "Backspace") {
      if (at > 0) quill.deleteText(--at, 1, "user");
    } else if (pending.key === "Delete") {
      if (at < length) quill.deleteText(at, 1, "user");
    } else if (pending.key === "ArrowLeft") {
      at = Math.max(0, at - 1);
    } else if (pending.key === "ArrowRight") {
      at = Math.min(length, at + 1);
    } else {
      const [line, offset] = quill.getLine(at);
      const start = at - offset;
      at = pending.key === "Home" ? start : start + Math.max(0, (line?.length() ?? 1) - 1);
    }
  }
  return at;
}
