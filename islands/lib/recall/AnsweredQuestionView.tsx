import { NoteView } from "./NoteView";
import { QuestionDisplay } from "./QuestionDisplay";
import type { AnsweredQuestionJson } from "./recall-prompt-types";

/** "Correct!" or "Your answer `…` is incorrect." (the backticks are part of the text). */
export function AnswerResult({ correct, answer }: { correct: boolean; answer: string }) {
  return correct ? (
    <p className="alert answer-correct" role="status">
      Correct!
    </p>
  ) : (
    <p className="alert answer-incorrect" role="status">
      Your answer `{answer}` is incorrect.
    </p>
  );
}

/**
 * An answered multiple-choice question: the note under question, the stem and choices with the
 * correct one (is-correct) and the learner's (is-selected) marked, and the result.
 */
export function AnsweredQuestionView({ answered }: { answered: AnsweredQuestionJson }) {
  const question = answered.predefinedQuestion;
  return (
    <div className="answered-question">
      {answered.note && <NoteView noteId={answered.note.id} note={answered.note} heading="Note under question" />}
      <QuestionDisplay
        question={question.multipleChoicesQuestion}
        chosenIndex={answered.answer.choiceIndex}
        correctIndex={question.correctAnswerIndex}
      />
      <AnswerResult correct={answered.answer.correct} answer={answered.answerDisplay ?? ""} />
    </div>
  );
}
