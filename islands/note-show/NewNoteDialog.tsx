import { type FormEvent, useRef, useState } from "react";
import { ApiError, api, call } from "../lib/api";
import { DialogActions, TextField } from "../lib/forms";
import { notePath } from "../lib/notes-queries";
import { Modal } from "../lib/ui/Dialog";
import { SuggestedTitle, WikidataTitleField } from "./wikidata/TitleSearch";
import { sameTitle, type WikidataSearchEntity } from "./wikidata/wikidata-api";

export type NewNotePlacement = "child" | "sibling";

/**
 * The new-note dialog: the title defaults to "Untitled", the Wikidata id is optional. Typing the
 * title searches Wikidata; choosing a result sets the Wikidata id, and the title too when the
 * label matches it case-insensitively, else the label is offered to Replace the title or to
 * Append to it (" / " plus the label). The form is disabled while submitting and a second
 * submission is ignored; on success the page goes to the new note.
 */
export function NewNoteDialog({ noteId, placement, onClose }: { noteId: number; placement: NewNotePlacement; onClose: () => void }) {
  const [newTitle, setNewTitle] = useState("Untitled");
  const [wikidataId, setWikidataId] = useState("");
  const [suggestedTitle, setSuggestedTitle] = useState<string>();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [submitting, setSubmitting] = useState(false);
  const submittingRef = useRef(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (submittingRef.current) return;
    submittingRef.current = true;
    setSubmitting(true);
    setErrors({});
    const note = api.notes({ note: noteId });
    const create = placement === "child" ? note.create : note["create-after"];
    try {
      const result = await call(create.post({ newTitle, wikidataId: wikidataId.trim() || undefined }));
      window.location.href = notePath(result.created.id);
    } catch (error) {
      if (error instanceof ApiError) setErrors(error.errors);
      submittingRef.current = false;
      setSubmitting(false);
    }
  }

  function chooseWikidataResult(result: WikidataSearchEntity) {
    setWikidataId(result.id);
    if (sameTitle(result.label, newTitle)) {
      setNewTitle(result.label);
      setSuggestedTitle(undefined);
    } else setSuggestedTitle(result.label || undefined);
  }

  function takeSuggestedTitle(how: "replace" | "append") {
    if (suggestedTitle === undefined) return;
    setNewTitle(how === "replace" ? suggestedTitle : `${newTitle} / ${suggestedTitle}`);
    setSuggestedTitle(undefined);
  }

  return (
    <Modal title={placement === "child" ? "Add Child Note" : "Add Next Sibling Note"} onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <fieldset disabled={submitting} className="plain-fieldset">
          <WikidataTitleField value={newTitle} error={errors.newTitle} onChange={setNewTitle} onSelect={chooseWikidataResult} />
          {suggestedTitle !== undefined && (
            <SuggestedTitle
              suggestion={suggestedTitle}
              onReplace={() => takeSuggestedTitle("replace")}
              onAppend={() => takeSuggestedTitle("append")}
            />
          )}
          <TextField
            label="Wikidata Id"
            name="wikidataId"
            value={wikidataId}
            error={errors.wikidataId}
            placeholder="example: Q1234"
            onChange={(event) => setWikidataId(event.target.value)}
          />
          <DialogActions onCancel={onClose} />
        </fieldset>
      </form>
    </Modal>
  );
}
