import { type FormEvent, useEffect, useRef, useState } from "react";
import { ApiError, api, call } from "../lib/api";
import { CertificatePopup } from "../lib/assessment/CertificatePopup";
import type { AssessmentAttemptJson, AssessmentQuestionInstanceJson } from "../lib/assessment/queries";
import { useElementId } from "../lib/island-id";
import { renderInlineMarkdownSafely, renderMarkdownSafely } from "../lib/markdown";
import { Modal } from "../lib/ui/Dialog";
import { showToast } from "../lib/ui-store";

type Stage =
  | { kind: "starting" }
  | { kind: "unavailable"; message: string }
  | { kind: "asking"; attempt: AssessmentAttemptJson; index: number; wrong?: AssessmentQuestionInstanceJson }
  | { kind: "submitting"; attempt: AssessmentAttemptJson }
  | { kind: "done"; result: AssessmentAttemptJson };

function FeedbackDialog({ questionId, onClose }: { questionId: number; onClose: () => void }) {
  const [comment, setComment] = useState("");
  const [error, setError] = useState<string>();
  const [sending, setSending] = useState(false);
  const fieldId = useElementId("feedback-comment");
  async function send(event: FormEvent) {
    event.preventDefault();
    if (!comment.trim() || sending) return;
    setSending(true);
    try {
      await call(api.conversation["assessment-question"]({ assessmentQuestion: questionId }).post(comment.trim()), { silent: true });
      showToast("Feedback sent to the notebook's owner", "success");
      onClose();
    } catch (failure) {
      setError(failure instanceof ApiError ? (Object.values(failure.errors)[0] ?? failure.message) : "The feedback could not be sent");
      setSending(false);
    }
  }
  return (
    <Modal title="Send feedback" onClose={onClose}>
      <form onSubmit={send}>
        <div className={`field${error ? " field-invalid" : ""}`}>
          <label htmlFor={fieldId}>What is wrong with this question?</label>
          <textarea
            id={fieldId}
            rows={4}
            dir="auto"
            value={comment}
            maxLength={10_000}
            onChange={(event) => setComment(event.target.value)}
            aria-invalid={error ? true : undefined}
          />
          {error && (
            <div className="field-error" role="alert">
              {error}
            </div>
          )}
        </div>
        <p className="muted">It starts a conversation with the notebook's owner.</p>
        <div className="dialog-actions">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button primary" disabled={!comment.trim() || sending}>
            Send
          </button>
        </div>
      </form>
    </Modal>
  );
}

/**
 * /d/assessment/notebook/{id}: starts an attempt, asks its questions one at a time (a right answer
 * moves on, a wrong one says so with "Continue" and "Send feedback"), then submits and shows the score.
 */
export default function Assessment({ notebookId }: { notebookId: number }) {
  const [stage, setStage] = useState<Stage>({ kind: "starting" });
  const [answering, setAnswering] = useState(false);
  const [feedbackFor, setFeedbackFor] = useState<number>();
  const [viewing, setViewing] = useState(false);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    call(api.assessment.questions({ notebook: notebookId }).post(), { silent: true })
      .then((attempt) => setStage({ kind: "asking", attempt, index: 0 }))
      .catch((error) =>
        setStage({ kind: "unavailable", message: error instanceof Error ? error.message : "The assessment is not available" }),
      );
  }, [notebookId]);

  async function submit(attempt: AssessmentAttemptJson) {
    setStage({ kind: "submitting", attempt });
    try {
      setStage({ kind: "done", result: await call(api.assessment({ id: attempt.id }).post()) });
    } catch {
      setStage({ kind: "asking", attempt, index: attempt.assessmentQuestionInstances.length - 1 });
    }
  }

  function next(attempt: AssessmentAttemptJson, index: number) {
    if (index + 1 < attempt.assessmentQuestionInstances.length) setStage({ kind: "asking", attempt, index: index + 1 });
    else void submit(attempt);
  }

  async function answer(attempt: AssessmentAttemptJson, index: number, choiceIndex: number) {
    if (answering) return;
    setAnswering(true);
    try {
      const question = attempt.assessmentQuestionInstances[index]!;
      const answered = await call(api.assessment({ id: question.id }).answer.post({ choiceIndex }));
      const updated = {
        ...attempt,
        assessmentQuestionInstances: attempt.assessmentQuestionInstances.map((q, i) => (i === index ? answered : q)),
      };
      if (answered.answer?.correct) next(updated, index);
      else setStage({ kind: "asking", attempt: updated, index, wrong: answered });
    } finally {
      setAnswering(false);
    }
  }

  if (stage.kind === "starting") return <p className="muted">Preparing the questions...</p>;
  if (stage.kind === "unavailable")
    return (
      <div className="alert alert-error" role="alert">
        {stage.message}
      </div>
    );
  if (stage.kind === "submitting") return <p className="muted">Scoring your answers...</p>;
  if (stage.kind === "done") {
    const { result } = stage;
    return (
      <section className="card assessment-result" aria-label="assessment result">
        <p className="assessment-score">
          Your score: {result.answersCorrect} / {result.totalQuestionCount}
        </p>
        <p className={result.isPass ? "assessment-pass" : "assessment-fail"}>
          {result.isPass ? "You have passed the assessment." : "You have not passed the assessment."}
        </p>
        {result.isPass && result.certifiable ? (
          <button type="button" className="button primary" onClick={() => setViewing(true)}>
            View Certificate
          </button>
        ) : result.isPass ? (
          <p className="muted">(This is not a certifiable assessment.)</p>
        ) : null}
        <p>
          <a href="/d/assessmentAndCertificateHistory">My Assessment and Certificate History</a>
        </p>
        {viewing && <CertificatePopup notebookId={result.notebookId} onClose={() => setViewing(false)} />}
      </section>
    );
  }

  const { attempt, index, wrong } = stage;
  const question = attempt.assessmentQuestionInstances[index]!;
  const total = attempt.assessmentQuestionInstances.length;
  return (
    <section className="card assessment-question" aria-label={`question ${index + 1} of ${total}`}>
      <p className="muted assessment-progress">
        Question {index + 1} of {total}
      </p>
      <div
        className="assessment-stem markdown"
        dir="auto"
        // biome-ignore lint/security/noDangerouslySetInnerHtml: renderMarkdownSafely escapes raw HTML and drops unsafe URLs.
        dangerouslySetInnerHTML={{ __html: renderMarkdownSafely(question.multipleChoicesQuestion.stem) }}
      />
      <ol className="assessment-choices">
        {question.multipleChoicesQuestion.choices.map((choice, choiceIndex) => {
          const chosen = question.answer?.choiceIndex === choiceIndex;
          return (
            <li
              // biome-ignore lint/suspicious/noArrayIndexKey: choices are positional (the correct answer is an index) and have no id.
              key={choiceIndex}
            >
              <button
                type="button"
                dir="auto"
                className={`button choice-button${chosen ? " is-chosen" : ""}`}
                disabled={answering || question.answer !== undefined}
                onClick={() => void answer(attempt, index, choiceIndex)}
              >
                <span
                  // biome-ignore lint/security/noDangerouslySetInnerHtml: renderInlineMarkdownSafely escapes raw HTML and drops unsafe URLs.
                  dangerouslySetInnerHTML={{ __html: renderInlineMarkdownSafely(choice) }}
                />
              </button>
            </li>
          );
        })}
      </ol>
      {wrong && (
        <div className="assessment-wrong">
          <p role="alert" className="alert alert-error">
            The answer is incorrect.
          </p>
          <div className="dialog-actions">
            <button type="button" className="button" onClick={() => setFeedbackFor(wrong.id)}>
              Send feedback
            </button>
            <button type="button" className="button primary" onClick={() => next(attempt, index)}>
              Continue
            </button>
          </div>
        </div>
      )}
      {feedbackFor !== undefined && <FeedbackDialog questionId={feedbackFor} onClose={() => setFeedbackFor(undefined)} />}
    </section>
  );
}
