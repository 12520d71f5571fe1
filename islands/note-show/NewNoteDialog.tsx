import { type FormEvent, useRef, useState } from "react";
import type { NoteRealmJson } from "../lib/notes-queries";
import { ApiError, api } from "../lib/api";
import { TextField } from "../lib/forms";
import { Modal } from "../lib/Modal";
import { notePath } from "../lib/notes-queries";

export type NewNotePlacement = "child" | "sibling";

/**
 * The new-note dialog: the title defaults to "Untitled", the Wikidata id is optional. The form
 * is disabled while submitting and a second submission is ignored; on success the page goes to
 * the new note.
 */
export function NewNoteDialog({ noteId, placement, onClose }: { noteId: number; placement: NewNotePlacement; onClose: () => void }) {
  const [newTitle, setNewTitle] = useState("Untitled");
  const [wikidataId, setWikidataId] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [submitting, setSubmitting] = useState(false);
  const submittingRef = useRef(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (submittingRef.current) return;
    submittingRef.current = true;
    setSubmitting(true);
    setErrors({});
    const path = placement === "child" ? `/api/notes/${noteId}/create` : `/api/notes/${noteId}/create-after`;
    try {
      const result = await api.post<{ created: NoteRealmJson }>(path, { newTitle, wikidataId: wikidataId.trim() || undefined });
      window.location.href = notePath(result.created.id);
    } catch (error) {
      if (error instanceof ApiError) setErrors(error.errors);
      submittingRef.current = false;
      setSubmitting(false);
    }
  }

  return (
    <Modal title={placement === "child" ? "Add Child Note" : "Add Next Sibling Note"} onClose={onClose} labelledBy="new-note-title">
      <form onSubmit={submit} noValidate>
        <fieldset disabled={submitting} className="plain-fieldset">
          <TextField label="Title" name="newTitle" value={newTitle} error={errors.newTitle} maxLength={150}
            onChange={(event) => setNewTitle(event.target.value)} onFocus={(event) => event.target.select()} />
          <TextField label="Wikidata Id" name="wikidataId" value={wikidataId} error={errors.wikidataId} placeholder="example: Q1234"
            onChange={(event) => setWikidataId(event.target.value)} />
          <div className="dialog-actions">
            <button type="button" className="button" onClick={onClose}>Cancel</button>
            <button type="submit" className="button primary">Submit</button>
          </div>
        </fieldset>
      </form>
    </Modal>
  );
}
