import { type FormEvent, useRef, useState } from "react";
import { ApiError, api, call } from "../api";
import { useElementId } from "../island-id";
import { MAX_CHOICE_LENGTH, MAX_CHOICES, MAX_STEM_LENGTH, MIN_CHOICES, type PredefinedQuestionJson } from "./questions-api";

interface Draft {
  stem: string;
  choices: string[];
  correctAnswerIndex: number;
}

const filled = (text: string) => text.trim() !== "";

/** Spec 5 "Add question": what each button may do with the form as it is. */
export function addQuestionRules({ stem, choices, correctAnswerIndex }: Draft) {
  const anyContent = filled(stem) || choices.some(filled);
  return {
    canSubmit:
      filled(stem) &&
      choices.length >= MIN_CHOICES &&
      choices.length <= MAX_CHOICES &&
      choices.every(filled) &&
      correctAnswerIndex >= 0 &&
      correctAnswerIndex < choices.length,
    canAddChoice: choices.length < MAX_CHOICES,
    canRemoveChoice: choices.length > MIN_CHOICES,
    canRefine: anyContent,
    canGenerate: !anyContent,
  };
}

const EMPTY: Draft = { stem: "", choices: ["", ""], correctAnswerIndex: 0 };

/** The server's field errors by dotted key, e.g. "multipleChoicesQuestion.choices.1". */
const choiceError = (errors: Record<string, string>, index: number) => errors[`multipleChoicesQuestion.choices.${index}`];

/**
 * The add-question form (spec 5): a stem, 2 to 10 choices with the correct one picked by a radio
 * button, "Refine" (the AI improves what is typed; enabled once something is typed), "Generate by
 * AI" (only while everything is empty) and Submit (only when the stem and every choice are filled
 * and the correct choice is one of them). An AI answer fills the form; nothing is saved until Submit.
 * Given `question`, it edits that question instead (the server replaces it and resets its approval).
 */
export function AddQuestionForm({
  noteId,
  question: editing,
  onAdded,
  onCancel,
}: {
  noteId: number;
  /** The question to edit; without it a new one is added. */
  question?: PredefinedQuestionJson;
  /** The question added, or the edited one as it now is. */
  onAdded: (question: PredefinedQuestionJson) => void;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState<Draft>(() =>
    editing
      ? {
          stem: editing.multipleChoicesQuestion.stem,
          choices: editing.multipleChoicesQuestion.choices.slice(0, MAX_CHOICES),
          // Only editors edit a question, and they are sent its answer key.
          correctAnswerIndex: editing.correctAnswerIndex ?? 0,
        }
      : EMPTY,
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState<"submit" | "refine" | "generate">();
  // A second click before the re-render (a double click) is ignored, not sent twice.
  const busyRef = useRef(false);
  const [aiMessage, setAiMessage] = useState<string>();
  const rules = addQuestionRules(draft);
  const stemId = useElementId(`note-${noteId}-question-stem`);
  const choiceId = useElementId(`note-${noteId}-question-choice`);
  const legendId = useElementId(`note-${noteId}-question-choices`);

  const setChoice = (index: number, value: string) =>
    setDraft((d) => ({ ...d, choices: d.choices.map((choice, i) => (i === index ? value : choice)) }));
  const addChoice = () => setDraft((d) => (d.choices.length < MAX_CHOICES ? { ...d, choices: [...d.choices, ""] } : d));
  // The last choice goes; if it was the correct one, no choice is marked correct until one is picked.
  const removeChoice = () => setDraft((d) => (d.choices.length > MIN_CHOICES ? { ...d, choices: d.choices.slice(0, -1) } : d));

  const fill = (question: PredefinedQuestionJson) => {
    setDraft({
      stem: question.multipleChoicesQuestion.stem,
      choices: question.multipleChoicesQuestion.choices.slice(0, MAX_CHOICES),
      correctAnswerIndex: question.correctAnswerIndex ?? -1,
    });
  };

  async function askAi(kind: "refine" | "generate") {
    if (busyRef.current) return;
    busyRef.current = true;
    setBusy(kind);
    setAiMessage(undefined);
    setErrors({});
    try {
      const body = { multipleChoicesQuestion: { stem: draft.stem, choices: draft.choices }, correctAnswerIndex: draft.correctAnswerIndex };
      // Silent: the message shows in the form, beside the buttons that asked.
      const answer =
        kind === "refine"
          ? await call(api["predefined-questions"]({ id: noteId })["refine-question"].post(body), { silent: true })
          : await call(api["predefined-questions"]["generate-question-without-save"].post({}, { query: { note: noteId } }), {
              silent: true,
            });
      if (answer) fill(answer);
      else setAiMessage("The AI could not suggest a question for this note. Please try again or write one yourself.");
    } catch (error) {
      setAiMessage(error instanceof ApiError ? error.message : "The AI could not be reached.");
    } finally {
      busyRef.current = false;
      setBusy(undefined);
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busyRef.current || !rules.canSubmit) return;
    busyRef.current = true;
    setBusy("submit");
    setErrors({});
    try {
      const body = { multipleChoicesQuestion: { stem: draft.stem, choices: draft.choices }, correctAnswerIndex: draft.correctAnswerIndex };
      const saved = editing
        ? await call(api["predefined-questions"]({ id: editing.id }).patch(body))
        : await call(api["predefined-questions"]({ id: noteId })["note-questions"].post(body));
      onAdded(saved);
    } catch (error) {
      if (error instanceof ApiError) setErrors(error.errors);
      busyRef.current = false;
      setBusy(undefined);
    }
  }

  const stemError = errors["multipleChoicesQuestion.stem"] ?? errors.multipleChoicesQuestion;
  const choicesError = errors["multipleChoicesQuestion.choices"] ?? errors.correctAnswerIndex;
  return (
    <form
      className="add-question-form"
      onSubmit={submit}
      aria-label={editing ? "Edit Question" : "Add Question"}
      aria-busy={busy ? true : undefined}
    >
      <div className={`field${stemError ? " field-invalid" : ""}`}>
        <label htmlFor={stemId}>Stem</label>
        {/* The form replaces the list in the dialog: the focus moves here, not to the page behind. */}
        <textarea
          id={stemId}
          name="stem"
          rows={3}
          dir="auto"
          value={draft.stem}
          maxLength={MAX_STEM_LENGTH}
          // biome-ignore lint/a11y/noAutofocus: the form opens on a click to add a question; its first field is where typing goes.
          autoFocus
          aria-invalid={stemError ? true : undefined}
          aria-describedby={stemError ? `${stemId}-error` : undefined}
          onChange={(event) => setDraft((d) => ({ ...d, stem: event.target.value }))}
        />
        {stemError && (
          <div className="field-error" id={`${stemId}-error`} role="alert">
            {stemError}
          </div>
        )}
      </div>
      <fieldset className="question-choices-field" aria-labelledby={legendId}>
        <legend id={legendId}>
          Choices <span className="muted">(pick the correct one)</span>
        </legend>
        {draft.choices.map((choice, index) => {
          const error = choiceError(errors, index);
          const id = `${choiceId}-${index}`;
          return (
            <div
              // biome-ignore lint/suspicious/noArrayIndexKey: choices are positional (the correct answer is an index) and have no id.
              key={index}
              className={`question-choice-row${error ? " field-invalid" : ""}`}
            >
              <input
                type="radio"
                name={`${choiceId}-correct`}
                checked={draft.correctAnswerIndex === index}
                aria-label={`Choice ${index + 1} is correct`}
                onChange={() => setDraft((d) => ({ ...d, correctAnswerIndex: index }))}
              />
              <label htmlFor={id} className="visually-hidden">
                Choice {index + 1}
              </label>
              <input
                id={id}
                type="text"
                dir="auto"
                value={choice}
                maxLength={MAX_CHOICE_LENGTH}
                placeholder={`Choice ${index + 1}`}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${id}-error` : undefined}
                onChange={(event) => setChoice(index, event.target.value)}
              />
              {error && (
                <div className="field-error" id={`${id}-error`} role="alert">
                  {error}
                </div>
              )}
            </div>
          );
        })}
        <div className="question-choice-buttons">
          <button
            type="button"
            className="button small"
            aria-label="Add choice"
            title="Add choice"
            disabled={!rules.canAddChoice}
            onClick={addChoice}
          >
            +
          </button>
          <button
            type="button"
            className="button small"
            aria-label="Remove choice"
            title="Remove the last choice"
            disabled={!rules.canRemoveChoice}
            onClick={removeChoice}
          >
            −
          </button>
          <span className="muted">
            {draft.choices.length} of {MIN_CHOICES} to {MAX_CHOICES} choices
          </span>
        </div>
        {choicesError && (
          <div className="field-error" role="alert">
            {choicesError}
          </div>
        )}
      </fieldset>
      {aiMessage && (
        <p className="alert warning" role="alert">
          {aiMessage}
        </p>
      )}
      <div className="dialog-actions add-question-actions">
        <button type="button" className="button" disabled={!rules.canRefine || Boolean(busy)} onClick={() => void askAi("refine")}>
          {busy === "refine" ? "Refining..." : "Refine"}
        </button>
        <button type="button" className="button" disabled={!rules.canGenerate || Boolean(busy)} onClick={() => void askAi("generate")}>
          {busy === "generate" ? "Generating..." : "Generate by AI"}
        </button>
        <span className="toolbar-spacer" />
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="button primary" disabled={!rules.canSubmit || Boolean(busy)}>
          Submit
        </button>
      </div>
    </form>
  );
}
