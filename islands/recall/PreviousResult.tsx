import { useEffect, useRef } from "react";
import { AnsweredQuestionResult, AnsweredQuestionView, AnswerResult } from "../lib/recall/AnsweredQuestionView";
import { NoteView } from "../lib/recall/NoteView";
import { answeredQuestionPath } from "../lib/recall/recall-prompt-types";
import type { RecallResult } from "./recall-session";

/**
 * A finished item of this session: its feedback and **Continue** first (visible without scrolling,
 * and focused, so Enter goes on), then the answered question, the spelling's note or the review.
 */
export function PreviousResult({ result, onContinue }: { result: RecallResult; onContinue: () => void }) {
  const continueButton = useRef<HTMLButtonElement>(null);
  // Focused when a result opens and each time another one is browsed to.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs again for each result shown
  useEffect(() => {
    continueButton.current?.focus({ preventScroll: false });
  }, [result]);
  return (
    <div className="previous-result">
      <div className="recall-result-head">
        <Feedback result={result} />
        <button ref={continueButton} type="button" className="button primary recall-continue" onClick={onContinue}>
          Continue
        </button>
      </div>
      <Details result={result} />
    </div>
  );
}

function Feedback({ result }: { result: RecallResult }) {
  switch (result.type) {
    case "question":
      return <AnsweredQuestionResult answered={result.answeredQuestion} />;
    case "spelling":
      return <AnswerResult correct={!!result.spellingResult.isCorrect} answer={result.spellingResult.answer ?? ""} />;
    case "review":
      return (
        <p className="alert review-result" role="status">
          {result.successful ? "Reviewed: remembered" : "Reviewed: needs more repetition"}
        </p>
      );
  }
}

function Details({ result }: { result: RecallResult }) {
  switch (result.type) {
    case "question":
      return (
        <>
          <AnsweredQuestionView answered={result.answeredQuestion} showResult={false} />
          <p>
            <a href={answeredQuestionPath(result.answeredQuestion.recallPromptId)}>Open this answered question</a>
          </p>
        </>
      );
    case "spelling":
      return <NoteView noteId={result.spellingResult.note.id} note={result.spellingResult.note} heading="Note under question" />;
    case "review":
      return result.note ? <NoteView noteId={result.note.id} note={result.note} heading="Note under question" /> : null;
  }
}
