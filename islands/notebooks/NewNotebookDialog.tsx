import { useEffect, useRef, useState } from "react";
import { api, call } from "../lib/api";
import { DialogActions, TextField } from "../lib/forms";
import { notePath } from "../lib/notes-queries";
import { Modal } from "../lib/ui/Dialog";
import { useFormSubmit } from "../lib/use-form-submit";

/**
 * "Add New Notebook" (and "Add New Notebook In This Circle" with a circleId): a title form. Creating the notebook leads to its head note page (spec 4);
 * the form is disabled while submitting and a second submission is ignored (spec 5), and the
 * request carries an id so that a request sent twice still makes one notebook.
 */
export function NewNotebookDialog({ onClose, circleId }: { onClose: () => void; circleId?: number }) {
  const [newTitle, setNewTitle] = useState("");
  // One id for this dialog's notebook: the server makes one notebook however often it is sent.
  const [requestId] = useState(() => `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`);
  const formRef = useRef<HTMLFormElement>(null);
  const { errors, submitting, submit } = useFormSubmit(
    () =>
      call(
        circleId === undefined
          ? api.notebooks.create.post({ newTitle, requestId })
          : api.circles({ circle: circleId }).notebooks.post({ newTitle, requestId }),
      ),
    // Stays disabled while the browser leaves for the new note.
    ({ noteId }) => window.location.assign(notePath(noteId)),
  );

  // The fieldset was disabled while sending, which drops focus: give it to the first field in error.
  // biome-ignore lint/correctness/useExhaustiveDependencies: errors is the trigger: the fields just marked invalid are found in the DOM.
  useEffect(() => {
    if (!submitting) formRef.current?.querySelector<HTMLElement>("[aria-invalid=true]")?.focus();
  }, [errors, submitting]);

  const otherErrors = Object.entries(errors).filter(([field]) => field !== "newTitle");
  return (
    <Modal title={circleId === undefined ? "Add New Notebook" : "Add New Notebook In This Circle"} onClose={onClose}>
      <form ref={formRef} onSubmit={submit} noValidate aria-busy={submitting || undefined}>
        {otherErrors.length > 0 && (
          <div className="form-message" role="alert">
            {otherErrors.map(([field, message]) => `${field} ${message}`).join("; ")}
          </div>
        )}
        <fieldset className="plain-fieldset" disabled={submitting}>
          <TextField
            label="Title"
            name="newTitle"
            value={newTitle}
            error={errors.newTitle}
            maxLength={150}
            placeholder="e.g. Spanish"
            autoComplete="off"
            onChange={(event) => setNewTitle(event.target.value)}
          />
          <DialogActions onCancel={onClose} />
        </fieldset>
      </form>
    </Modal>
  );
}
