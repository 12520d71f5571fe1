import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { ApiError, api, call } from "../lib/api";
import { LengthLimit } from "../lib/forms";
import { useElementId } from "../lib/island-id";
import { showToast } from "../lib/ui-store";

/** As the server's limit (MAX_ADDITIONAL_INSTRUCTIONS_LENGTH). */
const MAX_INSTRUCTIONS = 10_000;

const assistantQuery = (notebookId: number) => ({
  queryKey: ["notebook-ai-assistant", notebookId],
  // Editors only: for anyone else the section stays empty instead of showing an error.
  queryFn: () => call(api.notebooks({ notebook: notebookId })["ai-assistant"].get(), { silent: true }).then((x) => x ?? null),
});

/**
 * The notebook's "Additional Instruction" to the AI (question generation, evaluation, chat, title
 * suggestion), saved on its own "Save" so it never mixes with the settings form's reload.
 */
export function NotebookAiAssistantSection({ notebookId }: { notebookId: number }) {
  const queryClient = useQueryClient();
  const id = useElementId(`notebook-${notebookId}-additional-instruction`);
  const { data, isError } = useQuery(assistantQuery(notebookId));
  const [draft, setDraft] = useState<string | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [saving, setSaving] = useState(false);
  if (isError || data === undefined) return null;
  const value = draft ?? data?.additionalInstructionsToAi ?? "";

  async function save(event: FormEvent) {
    event.preventDefault();
    if (saving) return;
    setSaving(true);
    try {
      const saved = await call(api.notebooks({ notebook: notebookId })["ai-assistant"].patch({ additionalInstructions: value }));
      queryClient.setQueryData(assistantQuery(notebookId).queryKey, saved);
      setDraft(undefined);
      setError(undefined);
      showToast("Additional instruction saved", "success");
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 400) setError(failure.errors.additionalInstructions);
    } finally {
      setSaving(false);
    }
  }

  return (
    <form className="notebook-ai-assistant" onSubmit={save} aria-label="AI assistant">
      <div className={`field${error ? " field-invalid" : ""}`}>
        <label htmlFor={id}>Additional Instruction</label>
        <textarea
          id={id}
          name="additionalInstructions"
          rows={3}
          dir="auto"
          value={value}
          onChange={(event) => setDraft(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
        />
        <div id={`${id}-hint`} className="muted field-hint">
          Given to the AI for this notebook's questions, chats and title suggestions, e.g. "Answer in French."
        </div>
        <LengthLimit length={value.length} max={MAX_INSTRUCTIONS} label="Additional Instruction" showOver={!error} />
        {error && (
          <div className="field-error" id={`${id}-error`} role="alert">
            {error}
          </div>
        )}
      </div>
      <button type="submit" className="button" disabled={draft === undefined || saving}>
        Save Additional Instruction
      </button>
    </form>
  );
}
