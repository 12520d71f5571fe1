import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import type { SuggestedQuestionJson } from "../../src/services/predefined-questions/fine-tuning-suggestions";
import { ApiError, api, call } from "../lib/api";
import { CheckboxField, DialogActions, TextField } from "../lib/forms";
import { useElementId } from "../lib/island-id";
import { Modal } from "../lib/ui/Dialog";
import { confirmPopup, showToast } from "../lib/ui-store";

const suggestionsQuery = {
  queryKey: ["admin", "fine-tuning-suggestions"],
  queryFn: () => call(api["fine-tuning"]["all-suggested-questions-for-fine-tuning"].get()),
};
const settingsQuery = {
  queryKey: ["admin", "fine-tuning-settings"],
  queryFn: () => call(api["fine-tuning"].settings.get()),
};

/** The edit form's 4 choice fields (spec 9). */
const CHOICE_FIELDS = 4;
const CHOICES_KEY = "preservedQuestion.multipleChoicesQuestion.choices";
const INDEX_KEY = "preservedQuestion.correctChoiceIndex";
const STEM_KEY = "preservedQuestion.multipleChoicesQuestion.stem";

function TextArea({
  label,
  name,
  value,
  error,
  rows = 3,
  onChange,
}: {
  label: string;
  name: string;
  value: string;
  error?: string;
  rows?: number;
  onChange: (value: string) => void;
}) {
  const id = useElementId(`field-${name}`);
  return (
    <div className={`field${error ? " field-invalid" : ""}`}>
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        name={name}
        rows={rows}
        dir="auto"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error && (
        <div className="field-error" id={`${id}-error`} role="alert">
          {error}
        </div>
      )}
    </div>
  );
}

/** The edit dialog: the question (stem, 4 choices, correct index), the feedback, and the note content. */
function EditSuggestion({
  suggestion,
  onClose,
  onSaved,
}: {
  suggestion: SuggestedQuestionJson;
  onClose: () => void;
  onSaved: (saved: SuggestedQuestionJson) => void;
}) {
  const question = suggestion.preservedQuestion;
  const [stem, setStem] = useState(question.multipleChoicesQuestion.stem);
  const [choices, setChoices] = useState(() =>
    Array.from({ length: CHOICE_FIELDS }, (_, i) => question.multipleChoicesQuestion.choices[i] ?? ""),
  );
  const [correctIndex, setCorrectIndex] = useState(String(question.correctChoiceIndex));
  const [positive, setPositive] = useState(suggestion.positiveFeedback);
  const [realCorrectAnswers, setRealCorrectAnswers] = useState(suggestion.realCorrectAnswers);
  const [comment, setComment] = useState(suggestion.comment);
  const [noteContent, setNoteContent] = useState(suggestion.preservedNoteContent);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const choicesId = useElementId("fine-tuning-choices");

  async function save(event: FormEvent) {
    event.preventDefault();
    if (saving) return;
    setSaving(true);
    try {
      const saved = await call(
        api["fine-tuning"]({ suggestedQuestion: suggestion.id })["update-suggested-question-for-fine-tuning"].patch({
          preservedQuestion: {
            multipleChoicesQuestion: { stem, choices },
            correctChoiceIndex: /^\d+$/.test(correctIndex.trim()) ? Number(correctIndex) : -1,
            strictChoiceOrder: question.strictChoiceOrder,
          },
          positiveFeedback: positive,
          realCorrectAnswers: positive ? "" : realCorrectAnswers,
          comment,
          preservedNoteContent: noteContent,
        }),
      );
      onSaved(saved);
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) setErrors(error.errors);
      else throw error;
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal title="Edit suggested question" onClose={onClose} className="fine-tuning-dialog">
      <form onSubmit={save} noValidate>
        <TextArea label="Stem" name="stem" value={stem} error={errors[STEM_KEY]} rows={2} onChange={setStem} />
        <fieldset className="fine-tuning-choices" aria-describedby={errors[CHOICES_KEY] ? `${choicesId}-error` : undefined}>
          <legend>Choices</legend>
          {choices.map((choice, i) => (
            <TextField
              // biome-ignore lint/suspicious/noArrayIndexKey: choices are positional (the correct answer is an index) and have no id.
              key={i}
              label={`Choice ${i + 1}`}
              name={`choice-${i}`}
              value={choice}
              onChange={(event) => setChoices((old) => old.map((c, j) => (j === i ? event.target.value : c)))}
            />
          ))}
          {errors[CHOICES_KEY] && (
            <div className="field-error" id={`${choicesId}-error`} role="alert">
              {errors[CHOICES_KEY]}
            </div>
          )}
        </fieldset>
        <TextField
          label="Correct choice index (from 0)"
          name="correctChoiceIndex"
          inputMode="numeric"
          value={correctIndex}
          error={errors[INDEX_KEY]}
          onChange={(event) => setCorrectIndex(event.target.value)}
        />
        <CheckboxField
          label="Positive feedback"
          name="positiveFeedback"
          checked={positive}
          error={errors.positiveFeedback}
          onChange={setPositive}
        />
        {/* For positive feedback the real answer is the question's own: the field is hidden (spec 5). */}
        {!positive && (
          <TextField
            label="Real correct answers (e.g. 0,2)"
            name="realCorrectAnswers"
            value={realCorrectAnswers}
            error={errors.realCorrectAnswers}
            onChange={(event) => setRealCorrectAnswers(event.target.value)}
          />
        )}
        <TextArea label="Comment" name="comment" value={comment} error={errors.comment} rows={2} onChange={setComment} />
        <TextArea
          label="Note content"
          name="preservedNoteContent"
          value={noteContent}
          error={errors.preservedNoteContent}
          rows={5}
          onChange={setNoteContent}
        />
        <DialogActions onCancel={onClose} submitLabel="Save" submitting={saving} />
      </form>
    </Modal>
  );
}

/** The base model of new fine-tuning jobs (a global setting). */
function BaseModel() {
  const queryClient = useQueryClient();
  const { data } = useQuery(settingsQuery);
  const [draft, setDraft] = useState<string | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  if (!data) return null;
  async function save(event: FormEvent) {
    event.preventDefault();
    try {
      const saved = await call(api["fine-tuning"].settings.post({ baseModel: draft ?? data!.baseModel }));
      queryClient.setQueryData(settingsQuery.queryKey, saved);
      setDraft(undefined);
      setError(undefined);
      showToast("Base model saved", "success");
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 400) setError(failure.errors.baseModel);
      else throw failure;
    }
  }
  return (
    <form className="fine-tuning-base-model" onSubmit={save}>
      <TextField
        label="Base model for fine-tuning"
        name="baseModel"
        value={draft ?? data.baseModel}
        error={error}
        onChange={(event) => setDraft(event.target.value)}
      />
      <button type="submit" className="button" disabled={draft === undefined}>
        Save base model
      </button>
    </form>
  );
}

/**
 * "Fine Tuning Data": the questions learners suggested, each editable, duplicable and deletable,
 * and "Trigger Fine Tuning", which answers "Training initiated." or the server's message.
 */
export function FineTuningTab() {
  const queryClient = useQueryClient();
  const { data: suggestions, isPending } = useQuery(suggestionsQuery);
  const [editing, setEditing] = useState<SuggestedQuestionJson | undefined>(undefined);
  const [triggering, setTriggering] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; message: string } | undefined>(undefined);
  const refresh = () => queryClient.invalidateQueries({ queryKey: suggestionsQuery.queryKey });

  async function trigger() {
    setTriggering(true);
    setOutcome(undefined);
    try {
      const result = await call(api["fine-tuning"]["upload-and-trigger-fine-tuning"].post(), { silent: true });
      setOutcome({ ok: true, message: result.message });
    } catch (error) {
      setOutcome({ ok: false, message: error instanceof Error ? error.message : String(error) });
    } finally {
      setTriggering(false);
    }
  }
  async function duplicate(suggestion: SuggestedQuestionJson) {
    await call(api["fine-tuning"]({ suggestedQuestion: suggestion.id }).duplicate.post());
    await refresh();
  }
  async function remove(suggestion: SuggestedQuestionJson) {
    if (!(await confirmPopup(`Delete the suggested question "${suggestion.preservedQuestion.multipleChoicesQuestion.stem}"?`))) return;
    await call(api["fine-tuning"]({ suggestedQuestion: suggestion.id }).delete.post());
    await refresh();
  }

  return (
    <div className="fine-tuning">
      <div className="fine-tuning-actions">
        <button type="button" className="button primary" disabled={triggering} onClick={() => void trigger()}>
          Trigger Fine Tuning
        </button>
        <p
          role="status"
          className={outcome ? (outcome.ok ? "fine-tuning-outcome" : "fine-tuning-outcome field-error") : "fine-tuning-outcome"}
        >
          {triggering ? "Uploading the training files..." : outcome?.message}
        </p>
      </div>
      <BaseModel />
      {isPending ? (
        <p className="muted">Loading suggested questions...</p>
      ) : !suggestions || suggestions.length === 0 ? (
        <p className="empty-state">No suggested questions yet.</p>
      ) : (
        <ul className="admin-list" aria-label="Suggested questions">
          {suggestions.map((suggestion) => {
            const { multipleChoicesQuestion: mcq, correctChoiceIndex } = suggestion.preservedQuestion;
            return (
              <li key={suggestion.id} className="admin-list-item fine-tuning-item">
                <div className="admin-list-title" dir="auto">
                  {mcq.stem}
                </div>
                <span className={`fine-tuning-feedback ${suggestion.positiveFeedback ? "is-positive" : "is-negative"}`}>
                  {suggestion.positiveFeedback ? "Positive" : "Negative"}
                </span>
                <ol className="fine-tuning-choice-list" start={0}>
                  {mcq.choices.map((choice, i) => (
                    <li
                      // biome-ignore lint/suspicious/noArrayIndexKey: choices are positional (the correct answer is an index) and have no id.
                      key={i}
                      dir="auto"
                      className={i === correctChoiceIndex ? "is-correct" : undefined}
                    >
                      {choice}
                      {i === correctChoiceIndex && <span className="visually-hidden"> (correct)</span>}
                    </li>
                  ))}
                </ol>
                {suggestion.comment && (
                  <p className="muted fine-tuning-comment" dir="auto">
                    {suggestion.comment}
                  </p>
                )}
                <div className="admin-user-actions">
                  <button type="button" className="button small" aria-label={`Edit "${mcq.stem}"`} onClick={() => setEditing(suggestion)}>
                    Edit
                  </button>
                  <button
                    type="button"
                    className="button small"
                    aria-label={`Duplicate "${mcq.stem}"`}
                    onClick={() => void duplicate(suggestion)}
                  >
                    Duplicate
                  </button>
                  <button
                    type="button"
                    className="button small danger"
                    aria-label={`Delete "${mcq.stem}"`}
                    onClick={() => void remove(suggestion)}
                  >
                    Delete
                  </button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {editing && (
        <EditSuggestion
          suggestion={editing}
          onClose={() => setEditing(undefined)}
          onSaved={(saved) => {
            queryClient.setQueryData<SuggestedQuestionJson[]>(suggestionsQuery.queryKey, (old) =>
              old?.map((s) => (s.id === saved.id ? saved : s)),
            );
            setEditing(undefined);
            showToast("Suggested question saved", "success");
          }}
        />
      )}
    </div>
  );
}
