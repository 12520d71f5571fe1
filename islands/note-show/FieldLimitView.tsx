import { useEffect, useRef, useState } from "react";
import { LengthLimit } from "../lib/forms";
import type { Autosave } from "../lib/use-autosave";

/**
 * Under an autosaved text field: a counter near its limit; past the limit, or when the server
 * refused the text, a message saying why it is not saved; and while the text exists only in this
 * browser (too long, refused, or saves failing) a notice saying so, with a way to copy it.
 */
export function FieldLimitView({ autosave, max, label }: { autosave: Autosave; max: number; label: string }) {
  const length = autosave.value.length;
  const over = length > max;
  const localOnly = autosave.dirty && (over || autosave.failed || autosave.rejected !== undefined);
  return (
    <div className="field-limit">
      <LengthLimit length={length} max={max} label={label} />
      {!over && autosave.rejected !== undefined && (
        <div className="field-error" role="alert">
          {label} not saved: {autosave.rejected}
        </div>
      )}
      {localOnly && <LocalDraftNotice text={autosave.value} />}
    </div>
  );
}

/** Says the text is kept only here, and copies it; where the clipboard is not allowed, selects it to copy by hand. */
function LocalDraftNotice({ text }: { text: string }) {
  const [copy, setCopy] = useState<"copied" | "select">();
  const fallbackRef = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (copy === "select") fallbackRef.current?.select();
  }, [copy]);
  const copyText = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopy("copied");
    } catch {
      setCopy("select"); // no clipboard (plain http) or permission refused
    }
  };
  return (
    <div className="local-draft">
      <span>This text is kept only in this browser until it can be saved.</span>
      <button type="button" className="button small" onClick={() => void copyText()}>
        Copy text
      </button>
      <span role="status">
        {copy === "copied" ? "Copied." : copy === "select" ? "Press Ctrl+C (⌘C on a Mac) to copy the selected text." : ""}
      </span>
      {copy === "select" && (
        <textarea ref={fallbackRef} className="local-draft-text" aria-label="text to copy" readOnly value={text} dir="auto" />
      )}
    </div>
  );
}
