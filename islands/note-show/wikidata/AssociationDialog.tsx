import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useRef, useState } from "react";
import { api, call } from "../../lib/api";
import { DialogActions, TextField } from "../../lib/forms";
import { type NoteJson, noteRealmQuery } from "../../lib/notes-queries";
import { Modal } from "../../lib/ui/Dialog";
import { fetchWikidataEntity, knowledgeBaseError, sameTitle, wikidataEntityQuery } from "./wikidata-api";

/**
 * Associates the note with a Wikidata entity (spec 4, knowledge-base association): the entity's
 * English title is fetched first; when it differs case-insensitively from the note's title, a
 * confirm step shows it with Cancel and Confirm, otherwise the id is saved at once. An empty id
 * removes the association.
 */
export function WikidataAssociationDialog({ note, onClose }: { note: NoteJson; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [wikidataId, setWikidataId] = useState(note.wikidataId ?? "");
  const [error, setError] = useState<string>();
  const [differentTitle, setDifferentTitle] = useState<string>();
  const [busy, setBusy] = useState(false);
  const busyRef = useRef(false);
  const noteTitle = note.noteTopology.titleOrPredicate;

  /** Runs one step at a time; a second click while one runs is ignored. */
  async function step(action: () => Promise<void>) {
    if (busyRef.current) return;
    busyRef.current = true;
    setBusy(true);
    setError(undefined);
    try {
      await action();
    } catch (failure) {
      setDifferentTitle(undefined);
      setError(knowledgeBaseError(failure));
    } finally {
      busyRef.current = false;
      setBusy(false);
    }
  }

  async function save(id: string) {
    const realm = await call(api.notes({ note: note.id }).updateWikidataId.post({ wikidataId: id }), { silent: true });
    queryClient.setQueryData(noteRealmQuery(note.id).queryKey, realm);
    onClose();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const id = wikidataId.trim();
    void step(async () => {
      if (id === "") return save("");
      const entity = await fetchWikidataEntity(id);
      queryClient.setQueryData(wikidataEntityQuery(id).queryKey, entity);
      const entityTitle = entity.WikidataTitleInEnglish;
      if (entityTitle !== "" && !sameTitle(entityTitle, noteTitle)) setDifferentTitle(entityTitle);
      else await save(id);
    });
  }

  return (
    <Modal title={note.wikidataId ? "Edit Wikidata ID" : "Associate Wikidata"} onClose={onClose}>
      {differentTitle === undefined ? (
        <form onSubmit={submit} noValidate>
          <fieldset disabled={busy} className="plain-fieldset">
            <TextField
              label="Wikidata Id"
              name="wikidataId"
              value={wikidataId}
              error={error}
              placeholder="example: Q1234"
              autoComplete="off"
              onChange={(event) => setWikidataId(event.target.value)}
            />
            <DialogActions onCancel={onClose} submitLabel="Save" />
          </fieldset>
        </form>
      ) : (
        <div className="wikidata-confirm">
          <p>
            Confirm to associate <strong>{noteTitle}</strong> with <strong>{differentTitle}</strong>?
          </p>
          <div className="dialog-actions">
            <button type="button" className="button" disabled={busy} onClick={() => setDifferentTitle(undefined)}>
              Cancel
            </button>
            <button
              type="button"
              className="button primary"
              disabled={busy}
              // biome-ignore lint/a11y/noAutofocus: the dialog's initial focus, on the confirming button as in the other dialogs.
              autoFocus
              onClick={() => void step(() => save(wikidataId.trim()))}
            >
              Confirm
            </button>
          </div>
        </div>
      )}
    </Modal>
  );
}
