/**
 * Multiple-choice questions about notes and the recall prompts that put them to learners: the
 * store the bodies of prompts.ts and inject-questions.ts make.
 */
import { defineStore, read, type StoreOf, write } from "../define";
import { injectQuestions } from "./inject-questions";
import {
  answeredInRecall,
  answerPrompt,
  insertQuestion,
  markContested,
  prompt,
  promptWithQuestion,
  question,
  questionsOfNote,
  questionsOfNotebook,
  replaceContested,
  replaceQuestion,
  reusablePrompt,
  savePrompt,
  toggleApproval,
  withdrawQuestion,
} from "./prompts";

export type { InjectedQuestions } from "./inject-questions";
export type { NewQuestion, PredefinedQuestionRow, PromptAnswer, PromptWithQuestion, RecallPromptRow } from "./prompts";

export const recallPromptsStore = defineStore({
  question: read(question),
  prompt: read(prompt),
  promptWithQuestion: read(promptWithQuestion),
  reusablePrompt: read(reusablePrompt),
  answeredInRecall: read(answeredInRecall),
  savePrompt: write(savePrompt),
  markContested: write(markContested),
  replaceContested: write(replaceContested),
  answerPrompt: write(answerPrompt),
  questionsOfNote: read(questionsOfNote),
  questionsOfNotebook: read(questionsOfNotebook),
  insertQuestion: write(insertQuestion),
  replaceQuestion: write(replaceQuestion),
  withdrawQuestion: write(withdrawQuestion),
  toggleApproval: write(toggleApproval),
  injectQuestions: write(injectQuestions),
});
export type RecallPromptsStore = StoreOf<typeof recallPromptsStore>;
