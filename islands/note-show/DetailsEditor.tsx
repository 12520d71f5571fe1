import { useEffect, useLayoutEffect, useRef, useState } from "react";
import type { Autosave } from "../lib/use-autosave";
import { type Layout, layoutOf, RICH_MODE_REASONS, withoutEdgeWhitespace } from "./rich-mode";

/** Spec 9: the markdown details textarea grows with its text up to 1000 px, then scrolls. */
const MARKDOWN_MAX_HEIGHT_PX = 1000;
export const RICH_PLACEHOLDER = "Enter note details here...";

export function MarkdownEditor({ autosave, readonly }: { autosave: Autosave; readonly: boolean }) {
  const ref = useRef<HTMLTextAreaElement>(null);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    element.style.height = "auto";
    element.style.height = `${Math.min(element.scrollHeight + 2, MARKDOWN_MAX_HEIGHT_PX)}px`;
  }, [autosave.value]);
  return (
    <textarea ref={ref} className="markdown-editor" aria-label="note details (markdown)" dir="auto" value={autosave.value}
      readOnly={readonly} placeholder="Write the details in Markdown..." rows={4}
      onChange={(event) => autosave.onChange(event.target.value)} onBlur={autosave.flush} />
  );
}

type QuillInstance = import("quill").default;

/**
 * The rich editor: Quill with the bubble theme, loaded on demand. The server renders the details
 * as safe HTML in the same element, so the text shows before Quill takes it over.
 *
 * It never saves over Markdown it cannot hold: before it takes a text it checks that writing it
 * back unedited gives the same text (rich-mode/); if not, it stays read-only and calls
 * `onRefuse` with the text, and the note is edited as Markdown.
 */
export function RichEditor({ autosave, readonly, initialHtml, onRefuse }: {
  autosave: Autosave;
  readonly: boolean;
  initialHtml: string;
  onRefuse: (markdown: string, reason: string) => void;
}) {
  const hostRef = useRef<HTMLDivElement>(null);
  const quillRef = useRef<QuillInstance>(null);
  const lastEmitted = useRef(autosave.value);
  const autosaveRef = useRef(autosave);
  autosaveRef.current = autosave;
  const onRefuseRef = useRef(onRefuse);
  onRefuseRef.current = onRefuse;
  // The blocks and blank lines of the Markdown being edited, kept in what the editor writes.
  const layout = useRef<Layout>(undefined);
  // Fixed for the element's life: React must never rewrite what Quill owns.
  const [serverHtml] = useState(initialHtml);

  useEffect(() => {
    let cancelled = false;
    void import("./markdown-convert").then((convert) => {
      const host = hostRef.current;
      if (cancelled || !host) return;
      // No server HTML (the details changed since the page loaded): render the current Markdown.
      if (!serverHtml && autosaveRef.current.value) {
        host.innerHTML = convert.markdownToHtml(autosaveRef.current.value);
      }
      const quill = convert.createRichQuill(host, { readonly, placeholder: RICH_PLACEHOLDER });
      const taken = autosaveRef.current.value;
      if (!convert.holdsExactly(quill, taken)) {
        quill.disable();
        onRefuseRef.current(taken, RICH_MODE_REASONS.other);
        return;
      }
      layout.current = layoutOf(withoutEdgeWhitespace(taken));
      // Quill's editable root is a plain div: say what it is, so assistive technology can name it.
      quill.root.setAttribute("role", "textbox");
      quill.root.setAttribute("aria-multiline", "true");
      if (readonly) quill.root.setAttribute("aria-readonly", "true");
      quill.root.setAttribute("aria-label", "note details");
      quill.root.setAttribute("dir", "auto"); // Arabic or Hebrew details read right to left
      quill.on("text-change", (_delta, _old, source) => {
        if (source !== "user") return;
        const written = convert.editorMarkdownAndLayout(quill, layout.current);
        const markdown = written.markdown;
        layout.current = written.layout;
        lastEmitted.current = markdown;
        autosaveRef.current.onChange(markdown);
      });
      quill.root.addEventListener("blur", () => autosaveRef.current.flush());
      quillRef.current = quill;
      lastEmitted.current = taken;
    });
    return () => {
      cancelled = true;
    };
  }, [readonly, serverHtml]);

  // A value from elsewhere (undo, another tab): show it.
  useEffect(() => {
    const quill = quillRef.current;
    if (!quill || autosave.value === lastEmitted.current) return;
    lastEmitted.current = autosave.value;
    const value = autosave.value;
    void import("./markdown-convert").then((convert) => {
      convert.setMarkdown(quill, value);
      if (!convert.holdsExactly(quill, value)) {
        quill.disable();
        onRefuseRef.current(value, RICH_MODE_REASONS.other);
        return;
      }
      layout.current = layoutOf(withoutEdgeWhitespace(value));
    });
  }, [autosave.value]);

  return (
    <div className="rich-editor">
      <div ref={hostRef} className="rich-details" dir="auto" data-placeholder={RICH_PLACEHOLDER}
        dangerouslySetInnerHTML={{ __html: serverHtml }} />
    </div>
  );
}
