import { useLayoutEffect, useRef } from "react";
import type { Autosave } from "../lib/use-autosave";

/** The note title, edited in place. Enter ends the edit (titles have no line breaks). */
export function TitleEditor({ autosave, readonly }: { autosave: Autosave; readonly: boolean }) {
  const ref = useRef<HTMLTextAreaElement>(null);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    element.style.height = "auto";
    element.style.height = `${element.scrollHeight}px`;
  }, [autosave.value]);
  if (readonly) return <h1 className="note-title">{autosave.value}</h1>;
  const blank = autosave.value.trim() === "";
  return (
    <div className="note-title-editor">
      <textarea ref={ref} className="note-title" aria-label="note title" rows={1} maxLength={150}
        value={autosave.value} onChange={(event) => autosave.onChange(event.target.value.replace(/\n/g, " "))}
        onBlur={autosave.flush}
        onKeyDown={(event) => {
          if (event.key === "Enter") {
            event.preventDefault();
            event.currentTarget.blur();
          }
        }} />
      {blank && <div className="field-error" role="alert">The title cannot be empty; it is not saved until you type one.</div>}
    </div>
  );
}
