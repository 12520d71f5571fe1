import { useLayoutEffect, useRef } from "react";
import { useKeptCaret } from "../lib/keep-caret";
import type { Autosave } from "../lib/use-autosave";
import { FieldLimit, TITLE_MAX_LENGTH } from "./FieldLimit";

/**
 * The note title, edited in place. Enter ends the edit (titles have no line breaks). No maxLength:
 * a pasted long title is kept whole and told it is too long (FieldLimit) instead of cut silently.
 */
export function TitleEditor({ autosave, readonly }: { autosave: Autosave; readonly: boolean }) {
  const ref = useRef<HTMLTextAreaElement>(null);
  useKeptCaret(ref, autosave.value); // someone else's change merged in while typing
  // biome-ignore lint/correctness/useExhaustiveDependencies: the value is the trigger: the height is measured on the rendered text.
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    element.style.height = "auto";
    element.style.height = `${element.scrollHeight}px`;
  }, [autosave.value]);
  if (readonly)
    return (
      <h1 className="note-title" dir="auto">
        {autosave.value}
      </h1>
    );
  const blank = autosave.value.trim() === "";
  return (
    <div className="note-title-editor">
      <textarea
        ref={ref}
        className="note-title"
        aria-label="note title"
        rows={1}
        dir="auto"
        aria-invalid={autosave.value.length > TITLE_MAX_LENGTH || undefined}
        value={autosave.value}
        onChange={(event) => autosave.onChange(event.target.value.replace(/\n/g, " "), autosave.value)}
        onBlur={autosave.flush}
        onKeyDown={(event) => {
          if (event.key === "Enter") {
            event.preventDefault();
            event.currentTarget.blur();
          }
        }}
      />
      {blank && (
        <div className="field-error" role="alert">
          The title cannot be empty; it is not saved until you type one.
        </div>
      )}
      <FieldLimit autosave={autosave} max={TITLE_MAX_LENGTH} label="Title" />
    </div>
  );
}
