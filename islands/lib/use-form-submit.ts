import { type FormEvent, useRef, useState } from "react";
import { ApiError } from "./api";

/**
 * One form post at a time (spec 5: a double submission is ignored; state updates are not
 * synchronous, so a ref guards the second submit fired before the re-render). The server's field
 * messages are kept by name; after a success the form stays disabled, as the page usually moves on.
 */
export function useFormSubmit<T>(send: () => Promise<T>, done: (result: T) => void) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [submitting, setSubmitting] = useState(false);
  const inFlight = useRef(false);
  async function submit(event?: FormEvent) {
    event?.preventDefault();
    if (inFlight.current) return;
    inFlight.current = true;
    setSubmitting(true);
    setErrors({});
    try {
      done(await send());
    } catch (error) {
      if (error instanceof ApiError) setErrors(error.errors);
      inFlight.current = false;
      setSubmitting(false);
    }
  }
  return { errors, submitting, submit };
}
