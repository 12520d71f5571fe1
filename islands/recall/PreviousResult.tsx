import { AnsweredQuestionView, AnswerResult } from "../lib/recall/AnsweredQuestionView";
import { NoteView } from "../lib/recall/NoteView";
import { answeredQuestionPath } from "../lib/recall/recall-prompt-types";
import type { RecallResult } from "./recall-session";

/** A finished item of this session: the answered question, the spelling result or the review. */
export function PreviousResult({ result }: { result: RecallResult }) {
  switch (result.type) {
    case "question":
      return (
        <div className="previous-result">
          <AnsweredQuestionView answered={result.answeredQuestion} />
          <p>
            <a href={answeredQuestionPath(result.answeredQuestion.recallPromptId)}>Open this answered question</a>
          </p>
        </div>
      );
    case "spelling": {
      const { spellingResult } = result;
      return (
        <div className="previous-result">
          <AnswerResult correct={!!spellingResult.isCorrect} answer={spellingResult.answer ?? ""} />
          <NoteView noteId={spellingResult.note.id} note={spellingResult.note} heading="Note under question" />
        </div>
      );
    }
    case "review":
      return (
        <div className="previous-result">
          <p className="alert review-result" role="status">
            {result.successful ? "Reviewed: remembered" : "Reviewed: needs more repetition"}
          </p>
          {result.note && <NoteView noteId={result.note.id} note={result.note} heading="Note under question" />}
        </div>
      );
  }
}
