import { type FormEvent, useState } from "react";
import { useElementId } from "../lib/island-id";
import { useMathStylesheet } from "../lib/math";
import type { SpellingQuestionJson } from "../lib/recall/recall-prompt-types";
import type { ItemHandlers } from "./item-handlers";
import { NotebookLink } from "./NotebookLink";
import { answerSpelling, FAILED_TO_SUBMIT, isTrackerGone, thinkingSince } from "./recall-api";

/**
 * A spelling question: the note's details with its title masked (HTML made and sanitised by the
 * server), and a field for the title. A blank answer is not sent.
 */
export function SpellingQuestion({
  memoryTrackerId,
  question,
  onFinished,
  onGone,
}: { memoryTrackerId: number; question: SpellingQuestionJson | null } & ItemHandlers) {
  const inputId = useElementId(`spelling-answer-${memoryTrackerId}`);
  const [answer, setAnswer] = useState("");
  const [submitting, setSubmitting] = useState(false);
  const [failed, setFailed] = useState(false);
  const [shownAt] = useState(() => Date.now());

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (submitting || answer.trim() === "") return;
    setSubmitting(true);
    setFailed(false);
    try {
      const result = await answerSpelling(memoryTrackerId, answer, thinkingSince(shownAt));
      onFinished({ type: "spelling", spellingResult: result });
    } catch (error) {
      if (isTrackerGone(error)) return onGone();
      setFailed(true);
      setSubmitting(false);
    }
  }

  useMathStylesheet(question?.stem);
  return (
    <div className="spelling-question">
      {question?.notebook && <NotebookLink notebook={question.notebook} />}
      {question?.stem && (
        <div
          className="question-stem markdown"
          // biome-ignore lint/security/noDangerouslySetInnerHtml: the server renders the stem from Markdown and sanitises it (spelling-service.ts).
          dangerouslySetInnerHTML={{ __html: question.stem }}
        />
      )}
      <form className="spelling-form" onSubmit={submit}>
        <label htmlFor={inputId} className="visually-hidden">
          Your answer
        </label>
        <input
          id={inputId}
          type="text"
          dir="auto"
          // biome-ignore lint/a11y/noAutofocus: a spelling question is answered by typing at once; it shows after the learner's own action.
          autoFocus
          data-autofocus
          autoComplete="off"
          placeholder="put your answer here"
          value={answer}
          onChange={(e) => setAnswer(e.target.value)}
          disabled={submitting}
        />
        <button type="submit" className="button primary" disabled={submitting || answer.trim() === ""}>
          Answer
        </button>
      </form>
      {failed && (
        <p className="form-message" role="alert">
          {FAILED_TO_SUBMIT}
        </p>
      )}
    </div>
  );
}
