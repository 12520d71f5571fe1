import type { InputHTMLAttributes } from "react";
import { useElementId } from "./island-id";

/** A labelled input with the server's message for the field shown beneath it. */
export function TextField({ label, name, error, ...input }: {
  label: string;
  name: string;
  error?: string;
} & InputHTMLAttributes<HTMLInputElement>) {
  const id = useElementId(`field-${name}`);
  return (
    <div className={`field${error ? " field-invalid" : ""}`}>
      <label htmlFor={id}>{label}</label>
      <input id={id} name={name} dir="auto" aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined} {...input} />
      {error && <div className="field-error" id={`${id}-error`} role="alert">{error}</div>}
    </div>
  );
}

/** A checkbox with its label beside it and the server's message for the field beneath. */
export function CheckboxField({ label, name, checked, error, onChange }: {
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
        <input type="checkbox" id={id} name={name} checked={checked} onChange={(event) => onChange(event.target.checked)}
          aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined} />
        {label}
      </label>
      {error && <div className="field-error" id={`${id}-error`} role="alert">{error}</div>}
    </div>
  );
}

/** A form dialog's buttons: Cancel, and the submit button (Submit unless named otherwise). */
export function DialogActions({ onCancel, submitLabel = "Submit", submitting = false }: {
  onCancel: () => void;
  submitLabel?: string;
  submitting?: boolean;
}) {
  return (
    <div className="dialog-actions">
      <button type="button" className="button" onClick={onCancel}>Cancel</button>
      <button type="submit" className="button primary" disabled={submitting}>{submitLabel}</button>
    </div>
  );
}
