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
      <input id={id} name={name} aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined} {...input} />
      {error && <div className="field-error" id={`${id}-error`} role="alert">{error}</div>}
    </div>
  );
}
