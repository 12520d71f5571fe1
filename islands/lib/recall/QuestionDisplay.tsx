import { renderInlineMarkdownSafely, renderMarkdownSafely } from "../markdown";
import { useMath } from "../math";
import type { MultipleChoicesQuestion } from "./recall-prompt-types";

interface Props {
  question: MultipleChoicesQuestion;
  /** While answering: called with the chosen index. Without it the choices are read-only. */
  onChoose?: (choiceIndex: number) => void;
  disabled?: boolean;
  /** The choice being submitted (shows a spinner on it). */
  submittingIndex?: number;
  /** After answering: the learner's choice and the correct one. */
  chosenIndex?: number;
  correctIndex?: number;
}

/** A multiple-choice question: the stem and the choices, all Markdown rendered safely. */
export function QuestionDisplay({ question, onChoose, disabled, submittingIndex, chosenIndex, correctIndex }: Props) {
  useMath(question.stem);
  return (
    <div className="question">
      <div
        className="question-stem markdown"
        // biome-ignore lint/security/noDangerouslySetInnerHtml: renderMarkdownSafely escapes raw HTML and drops unsafe URLs.
        dangerouslySetInnerHTML={{ __html: renderMarkdownSafely(question.stem) }}
      />
      <ol className="question-choices">
        {question.choices.map((choice, index) => {
          const correct = index === correctIndex;
          const chosen = index === chosenIndex;
          return (
            <li
              // biome-ignore lint/suspicious/noArrayIndexKey: choices are positional (the correct answer is an index) and have no id.
              key={index}
            >
              <button
                type="button"
                className={`choice${correct ? " is-correct" : ""}${chosen ? " is-selected" : ""}`}
                disabled={!onChoose || disabled}
                aria-busy={submittingIndex === index || undefined}
                onClick={() => onChoose?.(index)}
              >
                <span
                  // biome-ignore lint/security/noDangerouslySetInnerHtml: renderInlineMarkdownSafely escapes raw HTML and drops unsafe URLs.
                  dangerouslySetInnerHTML={{ __html: renderInlineMarkdownSafely(choice) }}
                />
                {chosen && <span className="visually-hidden"> (your answer)</span>}
                {correct && <span className="visually-hidden"> (correct answer)</span>}
                {submittingIndex === index && <span className="spinner" aria-hidden="true" />}
              </button>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
