import { useQueryClient } from "@tanstack/react-query";
import { type RefObject, useEffect, useRef, useState } from "react";
import { noteAccessoryQuery, saveNoteAccessories } from "../../lib/accessory/queries";
import { ApiError } from "../../lib/api";

/**
 * Saving an accessories form: one request at a time, the answer goes into the accessory query
 * (so the note view shows it at once) and the dialog closes; field errors stay for the form.
 */
export function useAccessorySave(noteId: number, onSaved: () => void, formRef: RefObject<HTMLFormElement | null>) {
  const queryClient = useQueryClient();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const inFlight = useRef(false);

  // The fieldset was disabled while sending, which drops focus: give it to the first field in error.
  // biome-ignore lint/correctness/useExhaustiveDependencies: errors is the trigger: the fields just marked invalid are found in the DOM.
  useEffect(() => {
    if (!saving) formRef.current?.querySelector<HTMLElement>("[aria-invalid=true]")?.focus();
  }, [errors, saving, formRef]);

  async function save(form: FormData) {
    if (inFlight.current) return;
    inFlight.current = true;
    setSaving(true);
    setErrors({});
    try {
      const accessory = await saveNoteAccessories(noteId, form);
      queryClient.setQueryData(noteAccessoryQuery(noteId).queryKey, accessory);
      onSaved();
    } catch (error) {
      if (error instanceof ApiError) setErrors(error.errors);
    } finally {
      inFlight.current = false;
      setSaving(false);
    }
  }

  return { errors, saving, save };
}
