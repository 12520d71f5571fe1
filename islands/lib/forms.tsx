import type { InputHTMLAttributes } from "react";
import { useElementId } from "./island-id";
import { COUNTER_FROM } from "./length-counter";

export { COUNTER_FROM };

const count = (n: number) => n.toLocaleString("en-US");

/** Near a length limit, a counter; past it, a message saying so (the text is never cut). */
export function LengthLimit({ length, max, label, showOver = true }: { length: number; max: number; label: string; showOver?: boolean }) {
  if (length < max * COUNTER_FROM) return null;
  const over = length > max;
  return (
    <>
      <div className={`field-limit-count${over ? " is-over" : ""}`}>
        {count(length)} / {count(max)} characters
      </div>
      {over && showOver && (
        <div className="field-error" role="alert">
          {label} too long: {count(length)} characters, the limit is {count(max)}. Not saved until you remove {count(length - max)}.
        </div>
      )}
    </>
  );
}

/**
 * A labelled input with the server's message for the field shown beneath it. A maxLength is
 * shown as a counter near it and a message past it, not enforced by cutting what was pasted.
 */
export function TextField({
  label,
  name,
  error,
  maxLength,
  ...input
}: {
  label: string;
  name: string;
  error?: string;
} & InputHTMLAttributes<HTMLInputElement>) {
  const id = useElementId(`field-${name}`);
  const length = typeof input.value === "string" ? input.value.length : 0;
  const over = maxLength !== undefined && length > maxLength;
  return (
    <div className={`field${error || over ? " field-invalid" : ""}`}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        dir="auto"
        aria-invalid={error || over ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        {...input}
      />
      {maxLength !== undefined && <LengthLimit length={length} max={maxLength} label={label} showOver={!error} />}
      {error && (
        <div className="field-error" id={`${id}-error`} role="alert">
          {error}
        </div>
      )}
    </div>
  );
}

/** A checkbox with its label beside it and the server's message for the field beneath. */
export function CheckboxField({
  label,
  name,
  checked,
  error,
  onChange,
}: {
  label: string;
  name: string;
  checked: boolean;
  error?: string;
  onChange: (checked: boolean) => void;
}) {
  const id = useElementId(`field-${name}`);
  return (
    <div className={`field field-checkbox${error ? " field-invalid" : ""}`}>
      <label htmlFor={id}>
        <input
          type="checkbox"
          id={id}
          name={name}
          checked={checked}
          onChange={(event) => onChange(event.target.checked)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
        {label}
      </label>
      {error && (
        <div className="field-error" id={`${id}-error`} role="alert">
          {error}
        </div>
      )}
    </div>
  );
}

/** A form dialog's buttons: Cancel, and the submit button (Submit unless named otherwise). */
export function DialogActions({
  onCancel,
  submitLabel = "Submit",
  submitting = false,
}: {
  onCancel: () => void;
  submitLabel?: string;
  submitting?: boolean;
}) {
  return (
    <div className="dialog-actions">
      <button type="button" className="button" onClick={onCancel}>
        Cancel
      </button>
      <button type="submit" className="button primary" disabled={submitting}>
        {submitLabel}
      </button>
    </div>
  );
}
