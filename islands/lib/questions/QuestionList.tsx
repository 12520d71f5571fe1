import { useState } from "react";
import { renderInlineMarkdownSafely, renderMarkdownSafely } from "../markdown";
import type { PredefinedQuestionJson } from "./questions-api";
import { SuggestFineTuningDialog } from "./SuggestFineTuningDialog";

/**
 * Questions with their choices, the correct one marked; each with "Suggest for fine-tuning" and,
 * when given, an "Approved" switch (`onToggleApproval`), "Edit" (`onEdit`) and "Delete" (`onDelete`).
 */
export function QuestionList({
  questions,
  onToggleApproval,
  togglingId,
  onEdit,
  onDelete,
}: {
  questions: PredefinedQuestionJson[];
  onToggleApproval?: (question: PredefinedQuestionJson) => void;
  /** The question whose approval is being saved. */
  togglingId?: number;
  onEdit?: (question: PredefinedQuestionJson) => void;
  onDelete?: (question: PredefinedQuestionJson) => void;
}) {
  const [suggesting, setSuggesting] = useState<PredefinedQuestionJson>();
  return (
    <>
      <ol className="question-list">
        {questions.map((question) => (
          <li key={question.id} className="question-item" aria-label={question.multipleChoicesQuestion.stem}>
            <div
              className="question-item-stem markdown"
              dir="auto"
              // biome-ignore lint/security/noDangerouslySetInnerHtml: renderMarkdownSafely escapes raw HTML and drops unsafe URLs.
              dangerouslySetInnerHTML={{ __html: renderMarkdownSafely(question.multipleChoicesQuestion.stem) }}
            />
            <ol className="question-item-choices">
              {question.multipleChoicesQuestion.choices.map((choice, index) => (
                <li
                  // biome-ignore lint/suspicious/noArrayIndexKey: choices are positional (the correct answer is an index) and have no id.
                  key={index}
                  className={index === question.correctAnswerIndex ? "is-correct" : undefined}
                  dir="auto"
                >
                  <span
                    // biome-ignore lint/security/noDangerouslySetInnerHtml: renderInlineMarkdownSafely escapes raw HTML and drops unsafe URLs.
                    dangerouslySetInnerHTML={{ __html: renderInlineMarkdownSafely(choice) }}
                  />
                  {index === question.correctAnswerIndex && (
                    <span className="question-correct-mark">
                      {" "}
                      ✓<span className="visually-hidden"> (correct answer)</span>
                    </span>
                  )}
                </li>
              ))}
            </ol>
            <div className="question-item-actions">
              {onToggleApproval && (
                <label className="question-approval">
                  <input
                    type="checkbox"
                    checked={question.approved}
                    disabled={togglingId === question.id}
                    onChange={() => onToggleApproval(question)}
                  />
                  Approved
                </label>
              )}
              {onEdit && (
                <button type="button" className="button small" onClick={() => onEdit(question)}>
                  Edit
                </button>
              )}
              {onDelete && (
                <button type="button" className="button small danger" onClick={() => onDelete(question)}>
                  Delete
                </button>
              )}
              <button type="button" className="button small" onClick={() => setSuggesting(question)}>
                Suggest for fine-tuning
              </button>
            </div>
          </li>
        ))}
      </ol>
      {suggesting && (
        <SuggestFineTuningDialog
          questionId={suggesting.id}
          question={suggesting.multipleChoicesQuestion}
          onClose={() => setSuggesting(undefined)}
        />
      )}
    </>
  );
}
