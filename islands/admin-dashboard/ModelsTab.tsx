import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { ApiError, api } from "../lib/api";
import { useElementId } from "../lib/island-id";
import { showToast } from "../lib/ui-store";
import type { GlobalAiModelSettings } from "../../src/ai/model-settings";

const settingsQuery = { queryKey: ["admin", "model-settings"], queryFn: () => api.get<GlobalAiModelSettings>("/api/settings/current-model-version") };
const modelsQuery = {
  queryKey: ["admin", "available-models"],
  queryFn: () => api.get<string[]>("/api/ai/available-gpt-models", { silent: true }),
  retry: false,
};

const FIELDS = [
  { key: "questionGenerationModel", label: "Question Generation" },
  { key: "evaluationModel", label: "Evaluation" },
  { key: "othersModel", label: "Others" },
] as const;

function ModelSelect({ label, value, models, onChange }: { label: string; value: string; models: string[]; onChange: (value: string) => void }) {
  const id = useElementId(`model-${label}`);
  // The saved model stays listed even when the provider no longer offers it.
  const options = models.includes(value) ? models : [value, ...models];
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
        {options.map((model) => <option key={model} value={model}>{model}</option>)}
      </select>
    </div>
  );
}

/** "Manage Models": the chat model for question generation, evaluation and everything else. */
export function ModelsTab() {
  const queryClient = useQueryClient();
  const { data: settings } = useQuery(settingsQuery);
  const { data: models, error } = useQuery(modelsQuery);
  const [draft, setDraft] = useState<Partial<GlobalAiModelSettings>>({});
  const [saving, setSaving] = useState(false);
  if (error) return <p className="empty-state">{error instanceof ApiError && error.status === 503 ? "AI is not configured" : error.message}</p>;
  if (!settings || !models) return <p className="muted">Loading models...</p>;
  const values = { ...settings, ...draft };

  async function save(event: FormEvent) {
    event.preventDefault();
    setSaving(true);
    try {
      const saved = await api.post<GlobalAiModelSettings>("/api/settings/current-model-version", values);
      queryClient.setQueryData(settingsQuery.queryKey, saved);
      setDraft({});
      showToast("Model settings saved", "success");
    } finally {
      setSaving(false);
    }
  }
  return (
    <form className="admin-models" onSubmit={save}>
      {FIELDS.map(({ key, label }) => (
        <ModelSelect key={key} label={label} value={values[key]} models={models}
          onChange={(value) => setDraft((old) => ({ ...old, [key]: value }))} />
      ))}
      <button type="submit" className="button primary" disabled={saving}>Save</button>
    </form>
  );
}
