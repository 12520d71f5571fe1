/**
 * A note's multiple-choice questions on the client: the JSON shapes the server declares
 * (type-only imports) and the react-query keys of the lists.
 */
import { queryOptions } from "@tanstack/react-query";
import { api, call } from "../api";

export type { MultipleChoicesQuestion } from "../../../src/ai/question-generation";
export type { NoteQuestionsJson, PredefinedQuestionJson } from "../../../src/services/predefined-questions/presenters";

/** Spec 9: choices per question. */
export const MIN_CHOICES = 2;
export const MAX_CHOICES = 10;
/** The server's limits (src/services/predefined-questions/validation.ts). */
export const MAX_STEM_LENGTH = 2000;
export const MAX_CHOICE_LENGTH = 500;

export const noteQuestionsQuery = (noteId: number) =>
  queryOptions({
    queryKey: ["note-questions", noteId],
    queryFn: () => call(api["predefined-questions"]({ id: noteId })["note-questions"].get()),
  });

export const notebookQuestionsQuery = (notebookId: number) =>
  queryOptions({
    queryKey: ["notebook-questions", notebookId],
    queryFn: () => call(api["predefined-questions"].notebook({ notebook: notebookId }).questions.get()),
  });
