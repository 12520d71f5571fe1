import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useRef, useState } from "react";
import { type NoteAccessoryJson, noteAccessoryQuery } from "../../lib/accessory/queries";
import { DialogActions, TextField } from "../../lib/forms";
import { Modal } from "../../lib/ui/Dialog";
import { useAccessorySave } from "./use-accessory-save";

/** "Edit Note URL": the note's link; an empty field removes it. */
export function EditNoteUrlDialog({ noteId, onClose }: { noteId: number; onClose: () => void }) {
  const { data: accessory } = useQuery(noteAccessoryQuery(noteId));
  return (
    <Modal title="Edit Note URL" onClose={onClose}>
      {accessory ? <UrlForm noteId={noteId} accessory={accessory} onClose={onClose} /> : <p className="muted">Loading...</p>}
    </Modal>
  );
}

function UrlForm({ noteId, accessory, onClose }: { noteId: number; accessory: NoteAccessoryJson; onClose: () => void }) {
  const [url, setUrl] = useState(accessory.url ?? "");
  const formRef = useRef<HTMLFormElement>(null);
  const { errors, saving, save } = useAccessorySave(noteId, onClose, formRef);

  function submit(event: FormEvent) {
    event.preventDefault();
    const form = new FormData();
    form.append("url", url);
    void save(form);
  }

  return (
    <form ref={formRef} onSubmit={submit} noValidate aria-busy={saving || undefined}>
      <fieldset className="plain-fieldset" disabled={saving}>
        <TextField
          label="Url"
          name="url"
          type="url"
          inputMode="url"
          autoComplete="url"
          placeholder="https://..."
          value={url}
          error={errors.url}
          onChange={(event) => setUrl(event.target.value)}
        />
        <DialogActions onCancel={onClose} />
      </fieldset>
    </form>
  );
}
