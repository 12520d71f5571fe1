import { type FormEvent, useState } from "react";
import { ApiError, api, call } from "../api";
import { useElementId } from "../island-id";
import { Modal } from "../ui/Dialog";
import { showToast } from "../ui-store";
import type { MultipleChoicesQuestion } from "./questions-api";

/** The server's limit on a feedback comment. */
const MAX_COMMENT_LENGTH = 2000;

/**
 * "Suggest for fine-tuning": a good or a bad example for the AI, with a comment (why it is good,
 * or what is wrong). The admin sees the suggestions in the fine-tuning data.
 */
export function SuggestFineTuningDialog({
  questionId,
  question,
  onClose,
}: {
  questionId: number;
  question: MultipleChoicesQuestion;
  onClose: () => void;
}) {
  const [positive, setPositive] = useState<boolean>();
  const [comment, setComment] = useState("");
  const [error, setError] = useState<string>();
  const [sending, setSending] = useState(false);
  const commentId = useElementId(`question-${questionId}-feedback-comment`);
  const groupName = useElementId(`question-${questionId}-feedback`);

  async function send(event: FormEvent) {
    event.preventDefault();
    if (positive === undefined || sending) return;
    setSending(true);
    setError(undefined);
    try {
      await call(api["predefined-questions"]({ id: questionId })["suggest-fine-tuning"].post({ isPositiveFeedback: positive, comment }), {
        silent: true,
      });
      showToast("Thank you. Your suggestion was sent.", "success");
      onClose();
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : "The suggestion could not be sent.");
      setSending(false);
    }
  }

  return (
    <Modal title="Suggest for fine-tuning" onClose={onClose}>
      <form onSubmit={send} className="suggest-fine-tuning">
        <p className="suggest-question-stem" dir="auto">
          {question.stem}
        </p>
        <fieldset className="feedback-choice">
          <legend>Is this a good question?</legend>
          <label>
            <input type="radio" name={groupName} checked={positive === true} onChange={() => setPositive(true)} /> Positive: a good example
          </label>
          <label>
            <input type="radio" name={groupName} checked={positive === false} onChange={() => setPositive(false)} /> Negative: something is
            wrong
          </label>
        </fieldset>
        <div className="field">
          <label htmlFor={commentId}>Comment</label>
          <textarea
            id={commentId}
            rows={3}
            dir="auto"
            value={comment}
            maxLength={MAX_COMMENT_LENGTH}
            onChange={(event) => setComment(event.target.value)}
          />
        </div>
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
        <div className="dialog-actions">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button primary" disabled={positive === undefined || sending}>
            Send
          </button>
        </div>
      </form>
    </Modal>
  );
}
