import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import type { AssistantSettingsJson, DefaultAssistantJson } from "../../src/services/admin/assistant";
import { ApiError, api, call } from "../lib/api";
import { LengthLimit } from "../lib/forms";
import { useElementId } from "../lib/island-id";
import { showToast } from "../lib/ui-store";

const settingsQuery = { queryKey: ["admin", "assistant"], queryFn: () => call(api.ai.assistant.default.get()) };
const notebooksQuery = { queryKey: ["admin", "all-notebooks"], queryFn: () => call(api.admin.notebooks.get()) };
/** As the server's limit (src/services/admin/assistant.ts). */
const MAX_INSTRUCTIONS = 10_000;

function DefaultInstructions({ settings }: { settings: AssistantSettingsJson }) {
  const queryClient = useQueryClient();
  const id = useElementId("default-instructions");
  const [draft, setDraft] = useState<string | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const value = draft ?? settings.additionalInstructionsToAi;
  async function save(event: FormEvent) {
    event.preventDefault();
    try {
      queryClient.setQueryData(settingsQuery.queryKey, await call(api.ai.assistant.default.patch({ additionalInstructions: value })));
      setDraft(undefined);
      setError(undefined);
      showToast("Instructions saved", "success");
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 400) setError(failure.errors.additionalInstructions);
      else throw failure;
    }
  }
  return (
    <form className="assistant-section" onSubmit={save}>
      <div className={`field${error ? " field-invalid" : ""}`}>
        <label htmlFor={id}>Additional instructions to AI</label>
        <textarea
          id={id}
          rows={4}
          dir="auto"
          value={value}
          onChange={(event) => setDraft(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
        />
        <div id={`${id}-hint`} className="muted field-hint">
          Added to the instructions of every AI conversation and title suggestion, in every notebook, e.g. "Answer in British English."
        </div>
        <LengthLimit length={value.length} max={MAX_INSTRUCTIONS} label="Instructions" showOver={!error} />
        {error && (
          <div className="field-error" id={`${id}-error`} role="alert">
            {error}
          </div>
        )}
      </div>
      <button type="submit" className="button primary" disabled={draft === undefined}>
        Save
      </button>
    </form>
  );
}

function RecreateDefault({ assistant }: { assistant: DefaultAssistantJson | null }) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  async function recreate() {
    setBusy(true);
    try {
      await call(api.ai.assistant["recreate-default"].post());
      await queryClient.invalidateQueries({ queryKey: settingsQuery.queryKey });
      showToast("Default assistant recreated", "success");
    } finally {
      setBusy(false);
    }
  }
  return (
    <section className="assistant-section" aria-label="Default assistant">
      <h3>Default assistant</h3>
      {assistant ? (
        <dl className="failure-report-facts" aria-label="Current default assistant">
          <dt>Name</dt>
          <dd>{assistant.name}</dd>
          <dt>Model</dt>
          <dd>{assistant.model}</dd>
          <dt>Recreated</dt>
          <dd>{new Date(assistant.recreatedAt).toLocaleString()}</dd>
        </dl>
      ) : (
        <p className="muted">Not recreated yet: the built-in defaults apply.</p>
      )}
      <button type="button" className="button" disabled={busy} onClick={() => void recreate()}>
        Recreate Default Assistant
      </button>
    </section>
  );
}

/** Pick any notebook and download notebook-dump.json (a plain link: the browser keeps the session). */
function NotebookDump() {
  const id = useElementId("dump-notebook");
  const { data: notebooks } = useQuery(notebooksQuery);
  const [picked, setPicked] = useState<string>("");
  if (!notebooks) return <p className="muted">Loading notebooks...</p>;
  const notebookId = picked || (notebooks[0] ? String(notebooks[0].id) : "");
  return (
    <section className="assistant-section" aria-label="Notebook dump">
      <h3>Notebook dump</h3>
      {notebooks.length === 0 ? (
        <p className="empty-state">There is no notebook yet.</p>
      ) : (
        <div className="assistant-dump">
          <div className="field">
            <label htmlFor={id}>Notebook</label>
            <select id={id} value={notebookId} onChange={(event) => setPicked(event.target.value)}>
              {notebooks.map((notebook) => (
                <option key={notebook.id} value={notebook.id}>
                  {notebook.title} (by {notebook.creatorName})
                </option>
              ))}
            </select>
          </div>
          <a className="button" href={`/api/notebooks/${notebookId}/dump`} download="notebook-dump.json">
            Download notebook dump
          </a>
        </div>
      )}
    </section>
  );
}

/** "Manage Assistant": the default additional AI instructions, recreating the default assistant, and the notebook dump. */
export function AssistantTab() {
  const { data: settings } = useQuery(settingsQuery);
  if (!settings) return <p className="muted">Loading...</p>;
  return (
    <div className="assistant-admin">
      <DefaultInstructions settings={settings} />
      <RecreateDefault assistant={settings.defaultAssistant} />
      <NotebookDump />
    </div>
  );
}
