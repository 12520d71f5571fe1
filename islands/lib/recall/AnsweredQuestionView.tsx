import { renderInlineMarkdownSafely } from "../markdown";
import { NoteView } from "./NoteView";
import { QuestionDisplay } from "./QuestionDisplay";
import type { AnsweredQuestionJson } from "./recall-prompt-types";

/**
 * "Correct!" or "Your answer `…` is incorrect.", rendered, never with its backticks: a typed
 * spelling answer as code, exactly as typed; a multiple-choice answer is the choice's Markdown,
 * rendered as the choices are (safely, inline).
 */
export function AnswerResult({
  correct,
  answer,
  answerIsMarkdown = false,
}: {
  correct: boolean;
  answer: string;
  answerIsMarkdown?: boolean;
}) {
  if (correct) {
    return (
      <p className="alert answer-correct" role="status">
        Correct!
      </p>
    );
  }
  return (
    <p className="alert answer-incorrect" role="status">
      Your answer{" "}
      {answerIsMarkdown ? (
        // biome-ignore lint/security/noDangerouslySetInnerHtml: the safe Markdown renderer's output, as for the choices
        <span className="given-answer" dir="auto" dangerouslySetInnerHTML={{ __html: renderInlineMarkdownSafely(answer) }} />
      ) : (
        <code className="given-answer" dir="auto">
          {answer}
        </code>
      )}{" "}
      is incorrect.
    </p>
  );
}

/** The result line of an answered multiple-choice question. */
export const AnsweredQuestionResult = ({ answered }: { answered: AnsweredQuestionJson }) => (
  <AnswerResult correct={answered.answer.correct} answer={answered.answerDisplay ?? ""} answerIsMarkdown />
);

/**
 * An answered multiple-choice question: the note under question, the stem and choices with the
 * correct one (is-correct) and the learner's (is-selected) marked, and the result (unless the
 * caller shows it elsewhere, as recall does above the question).
 */
export function AnsweredQuestionView({ answered, showResult = true }: { answered: AnsweredQuestionJson; showResult?: boolean }) {
  const question = answered.predefinedQuestion;
  return (
    <div className="answered-question">
      {answered.note && <NoteView noteId={answered.note.id} note={answered.note} heading="Note under question" />}
      <QuestionDisplay
        question={question.multipleChoicesQuestion}
        chosenIndex={answered.answer.choiceIndex}
        correctIndex={question.correctAnswerIndex}
      />
      {showResult && <AnsweredQuestionResult answered={answered} />}
    </div>
  );
}
