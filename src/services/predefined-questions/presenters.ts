import type { MultipleChoicesQuestion } from "../../ai/question-generation";
import { type PredefinedQuestionRow, storedQuestion } from "../recall-prompts/rows";

/** PredefinedQuestion of the reference's API contract. */
export interface PredefinedQuestionJson {
  /** 0 for a question that is not saved (refined or generated for the add-question form). */
  id: number;
  multipleChoicesQuestion: MultipleChoicesQuestion;
  /** The answer key: for the notebook's editors only (mayReadAnswerKeys); readers get the question without it. */
  correctAnswerIndex?: number;
  approved: boolean;
}

/** A stored question; its correct index only when `withAnswerKey` (the policy's mayReadAnswerKeys for the caller). */
export function presentPredefinedQuestion(row: PredefinedQuestionRow, withAnswerKey: boolean): PredefinedQuestionJson {
  return {
    id: row.id,
    multipleChoicesQuestion: storedQuestion(row),
    ...(withAnswerKey ? { correctAnswerIndex: row.correctAnswerIndex } : {}),
    approved: row.approved,
  };
}

/** A question that is not saved: the form gets it to edit and submit. */
export function presentUnsavedQuestion(question: MultipleChoicesQuestion, correctAnswerIndex: number): PredefinedQuestionJson {
  return { id: 0, multipleChoicesQuestion: question, correctAnswerIndex, approved: false };
}

/** The questions of one note in the notebook's list (Notebook Questions). */
export interface NoteQuestionsJson {
  note: { id: number; title: string };
  questions: PredefinedQuestionJson[];
}
