import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import type { GlobalAiModelSettings } from "../../src/ai/model-settings";
import { ApiError, api, call } from "../lib/api";
import { useElementId } from "../lib/island-id";
import { showToast } from "../lib/ui-store";

const settingsQuery = {
  queryKey: ["admin", "model-settings"],
  queryFn: () => call(api.settings["current-model-version"].get()),
};
const modelsQuery = {
  queryKey: ["admin", "available-models"],
  queryFn: () => call(api.ai["available-gpt-models"].get(), { silent: true }),
  retry: false,
};

const embeddingQuery = { queryKey: ["admin", "embedding-settings"], queryFn: () => call(api.settings.embedding.get()) };

const FIELDS = [
  { key: "questionGenerationModel", label: "Question Generation" },
  { key: "evaluationModel", label: "Evaluation" },
  { key: "othersModel", label: "Others" },
] as const;

function ModelSelect({
  label,
  value,
  models,
  onChange,
}: {
  label: string;
  value: string;
  models: string[];
  onChange: (value: string) => void;
}) {
  const id = useElementId(`model-${label}`);
  // The saved model stays listed even when the provider no longer offers it.
  const options = models.includes(value) ? models : [value, ...models];
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
        {options.map((model) => (
          <option key={model} value={model}>
            {model}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * The embedding model and the dimension asked of the provider (text-embedding-3-* can shorten
 * their vectors: fewer dimensions, faster semantic search). Changing either re-embeds every note
 * in the background; semantic search keeps answering from the notes already re-embedded.
 */
function EmbeddingForm() {
  const queryClient = useQueryClient();
  const { data: settings } = useQuery(embeddingQuery);
  const [model, setModel] = useState<string | undefined>();
  const [dimensions, setDimensions] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  const modelId = useElementId("embedding-model");
  const dimensionsId = useElementId("embedding-dimensions");
  if (!settings) return null;
  const modelValue = model ?? settings.embeddingModel;
  const dimensionsValue = dimensions ?? (settings.embeddingDimensions === null ? "" : String(settings.embeddingDimensions));

  async function apply(event: FormEvent) {
    event.preventDefault();
    setSaving(true);
    try {
      const text = dimensionsValue.trim();
      const saved = await call(
        api.settings.embedding.post({
          embeddingModel: modelValue,
          embeddingDimensions: text === "" ? null : Number(text),
        }),
      );
      queryClient.setQueryData(embeddingQuery.queryKey, saved);
      setModel(undefined);
      setDimensions(undefined);
      showToast("Embedding settings changed: notes are embedded again in the background", "success");
    } finally {
      setSaving(false);
    }
  }
  return (
    <form className="admin-models admin-embedding" onSubmit={apply}>
      <h3>Embeddings (semantic search)</h3>
      <div className="field">
        <label htmlFor={modelId}>Embedding model</label>
        <input id={modelId} value={modelValue} maxLength={200} required onChange={(event) => setModel(event.target.value)} />
      </div>
      <div className="field">
        <label htmlFor={dimensionsId}>Dimensions</label>
        <input
          id={dimensionsId}
          type="number"
          min={64}
          max={3072}
          step={1}
          placeholder="the model's own"
          value={dimensionsValue}
          onChange={(event) => setDimensions(event.target.value)}
        />
        <p className="muted">64 to 3,072, for models that can shorten their vectors (text-embedding-3-*); empty: the model's own length.</p>
      </div>
      <button type="submit" className="button" disabled={saving}>
        Re-embed with these
      </button>
    </form>
  );
}

/** "Manage Models": the chat model for question generation, evaluation and everything else, and the embeddings. */
export function ModelsTab() {
  const queryClient = useQueryClient();
  const { data: settings } = useQuery(settingsQuery);
  const { data: models, error } = useQuery(modelsQuery);
  const [draft, setDraft] = useState<Partial<GlobalAiModelSettings>>({});
  const [saving, setSaving] = useState(false);
  if (error)
    return <p className="empty-state">{error instanceof ApiError && error.status === 503 ? "AI is not configured" : error.message}</p>;
  if (!settings || !models) return <p className="muted">Loading models...</p>;
  const values = { ...settings, ...draft };

  async function save(event: FormEvent) {
    event.preventDefault();
    setSaving(true);
    try {
      const saved = await call(api.settings["current-model-version"].post(values));
      queryClient.setQueryData(settingsQuery.queryKey, saved);
      setDraft({});
      showToast("Model settings saved", "success");
    } finally {
      setSaving(false);
    }
  }
  return (
    <>
      <form className="admin-models" onSubmit={save}>
        {FIELDS.map(({ key, label }) => (
          <ModelSelect
            key={key}
            label={label}
            value={values[key]}
            models={models}
            onChange={(value) => setDraft((old) => ({ ...old, [key]: value }))}
          />
        ))}
        <button type="submit" className="button primary" disabled={saving}>
          Save
        </button>
      </form>
      <EmbeddingForm />
    </>
  );
}
