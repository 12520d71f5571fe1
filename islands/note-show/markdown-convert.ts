import Quill, { Delta } from "quill";
import { renderMarkdownSafely } from "../lib/markdown";
import { type Layout, layoutOf, RICH_MODE_REASONS, withoutEdgeWhitespace, writeMarkdown } from "./rich-mode";

export { RICH_MODE_REASONS };

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
      // Undo (Ctrl+Z) takes back the learner's own edits only; others' changes shown meanwhile
      // (showMarkdown) shift what it takes back, so it stays right.
      history: { userOnly: true },
    },
  });
  // marked writes strikethrough as <del>, which Quill's clipboard does not know.
  quill.clipboard.addMatcher("DEL", (_node, delta) => delta.compose(new Delta().retain(delta.length(), { strike: true })));
  return quill;
}

/** Puts Markdown in the editor without a user change (so nothing is saved). */
export function setMarkdown(quill: Quill, markdown: string) {
  quill.setContents(quill.clipboard.convert({ html: markdownToHtml(markdown) }), "silent");
}

/** Markdown as the editor's document holds it: converted, and closed by a line break as every document is. */
function documentOf(quill: Quill, markdown: string): Delta {
  const converted = quill.clipboard.convert({ html: markdownToHtml(markdown) });
  const last = converted.ops.at(-1)?.insert;
  return typeof last === "string" && last.endsWith("\n") ? converted : converted.insert("\n");
}

/**
 * Shows new Markdown in the editor without a user change (so nothing is saved): the change from
 * the Markdown it showed before, applied to what it holds now, so the caret stays where it was
 * relative to the text around it, and what the editor holds that its Markdown does not (a space
 * just typed at the end of a line) stays too.
 */
export function showMarkdown(quill: Quill, before: string, after: string) {
  const shownBefore = documentOf(quill, before);
  const local = shownBefore.diff(quill.getContents());
  const remote = shownBefore.diff(documentOf(quill, after));
  const change = local.transform(remote, true);
  const selection = quill.getSelection();
  quill.updateContents(change, "api");
  if (selection) quill.setSelection(change.transformPosition(selection.index), selection.length, "silent");
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

/**
 * What the learner typed into the stand-in before the editor was up, as an edit of the editor's
 * document: the difference between the stand-in's HTML as shown and as typed into, both read the
 * way the editor reads HTML. A browser types a no-break space for a space at the end of a line
 * in an editable element; the editor would have typed a plain one, so that is what is kept.
 */
export function standInEdit(quill: Quill, shownHtml: string, editedHtml: string): Delta {
  if (shownHtml === editedHtml) return new Delta();
  const shown = quill.clipboard.convert({ html: shownHtml });
  const edited = quill.clipboard.convert({ html: editedHtml });
  const ops = shown
    .diff(edited)
    .ops.map((op) => (typeof op.insert === "string" ? { ...op, insert: op.insert.replaceAll("\u00a0", " ") } : op));
  return new Delta(ops);
}

/**
 * The Markdown to edit when the editor refuses it after text was typed into the stand-in: the
 * typed text (plain) after it, so that nothing typed is lost.
 */
export function withTypedText(markdown: string, typed: Delta): string {
  const text = typed.ops
    .map((op) => (typeof op.insert === "string" ? op.insert : ""))
    .join("")
    .trim();
  return text ? `${markdown}\n\n${text}` : markdown;
}

/**
 * Where the caret is in the stand-in, as a mark the editor can find again: the visible characters
 * before it. "end" when the caret is elsewhere (the editor then puts it after the text).
 */
function caretMarkOfSelection(host: HTMLElement): CaretMark {
  const selection = host.ownerDocument.getSelection();
  if (!selection || selection.rangeCount === 0 || !selection.focusNode || !host.contains(selection.focusNode)) return "end";
  const before = host.ownerDocument.createRange();
  before.setStart(host, 0);
  before.setEnd(selection.focusNode, selection.focusOffset);
  const text = before.toString();
  return { visible: text.replace(/\s/g, "").length, afterSpace: /[ \t\u00a0]$/.test(text) };
}

/**
 * The rich editor takes the stand-in's place (DetailsEditor.tsx): Quill over the details as they
 * were `shown`, then what was typed into the stand-in meanwhile as the learner's own edit, and the
 * caret where it was. One synchronous step, so no key falls between. When Quill cannot hold the
 * Markdown exactly it stays read-only and `onRefuse` gets the text plus anything typed (nothing
 * typed is lost); undefined then. `onReady` comes before the typed edit is applied (as `onEdit`).
 */
export function takeOverStandIn(
  host: HTMLElement,
  shown: { html: string; value: string },
  hooks: {
    placeholder: string;
    /** The blocks and blank lines of the Markdown being edited, kept in what the editor writes. */
    layout: { current: Layout | undefined };
    onRefuse: (markdown: string, reason: string) => void;
    onEdit: (markdown: string) => void;
    onBlur: () => void;
    onReady: (quill: Quill) => void;
  },
): Quill | undefined {
  const edited = host.innerHTML;
  const caret = caretMarkOfSelection(host);
  const hadFocus = host.contains(host.ownerDocument.activeElement);
  host.removeAttribute("contenteditable");
  host.innerHTML = shown.html;
  const quill = createRichQuill(host, { readonly: false, placeholder: hooks.placeholder });
  const typed = standInEdit(quill, shown.html, edited);
  if (!holdsExactly(quill, shown.value)) {
    quill.disable();
    hooks.onRefuse(withTypedText(shown.value, typed), RICH_MODE_REASONS.other);
    return undefined;
  }
  hooks.layout.current = layoutFor(shown.value);
  // Quill's editable root is a plain div: say what it is, so assistive technology can name it.
  // The element that stood for it until now stops being a text box.
  for (const name of ["role", "aria-label", "aria-multiline", "aria-busy", "tabindex"]) host.removeAttribute(name);
  quill.root.setAttribute("role", "textbox");
  quill.root.setAttribute("aria-multiline", "true");
  quill.root.setAttribute("aria-label", "note details");
  quill.root.setAttribute("dir", "auto"); // Arabic or Hebrew details read right to left
  quill.on("text-change", (_delta, _old, source) => {
    if (source !== "user") return;
    const written = editorMarkdownAndLayout(quill, hooks.layout.current);
    hooks.layout.current = written.layout;
    hooks.onEdit(written.markdown);
  });
  quill.root.addEventListener("blur", hooks.onBlur);
  hooks.onReady(quill);
  if (typed.length() > 0) quill.updateContents(typed, "user");
  if (hadFocus) quill.setSelection(caretIndex(quill, caret), 0, "silent");
  return quill;
}
