import { type ReactNode, useLayoutEffect, useRef, useState } from "react";

/**
 * Details that only the Markdown editor can edit (a table, a task list, HTML...) are shown rendered
 * until their editor starts editing them, as rich details are: a click, a tap or the keyboard's
 * focus on them opens the Markdown editor (`editor`) in their place, focused, so what is typed next
 * goes into it. `html` is safe HTML (the server's rendering, or renderMarkdownSafely's).
 */
export function MarkdownPreview({ html, editor }: { html: string; editor: ReactNode }) {
  const [editing, setEditing] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (editing) box.current?.querySelector<HTMLTextAreaElement>("textarea")?.focus();
  }, [editing]);
  if (editing) return <div ref={box}>{editor}</div>;
  return (
    // biome-ignore lint/a11y/useSemanticElements: it stands for the details' text box until the editor replaces it, as the rich details do.
    <div
      className="rich-details markdown-preview"
      dir="auto"
      role="textbox"
      aria-label="note details"
      aria-multiline
      tabIndex={0}
      title="Click to edit as Markdown"
      onFocus={() => setEditing(true)}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: the server's rendering of the details or renderMarkdownSafely's, both sanitised.
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
