/** JSON shapes of recall prompts, answers and spelling results (reference-openapi.yaml). */
import type { NoteJson, NotebookJson } from "../notes-queries";

export interface MultipleChoicesQuestionJson {
  stem: string;
  choices: string[];
}

/** A question to answer: the correct index is not sent. */
export interface RecallPromptJson {
  id: number;
  multipleChoicesQuestion: MultipleChoicesQuestionJson;
  notebook?: NotebookJson;
}

export interface AnsweredQuestionJson {
  recallPromptId: number;
  answer: { id: number; choiceIndex?: number; correct: boolean };
  answerDisplay?: string;
  predefinedQuestion: {
    id: number;
    multipleChoicesQuestion: MultipleChoicesQuestionJson;
    correctAnswerIndex?: number;
    approved?: boolean;
  };
  note?: NoteJson;
}

/** The stem is HTML, already sanitised (and clozed) by the server. */
export interface SpellingQuestionJson {
  stem?: string;
  notebook?: NotebookJson;
}

export interface SpellingResultJson {
  note: NoteJson;
  answer?: string;
  isCorrect?: boolean;
}

export interface QuestionContestResultJson {
  advice?: string;
  rejected?: boolean;
}

export const answeredQuestionPath = (recallPromptId: number) => `/d/answers/${recallPromptId}`;
