/**
 * JSON shapes of recall prompts, answers and spelling results, as the server declares them
 * (type-only: nothing of the server reaches the browser bundle).
 */
export type { MultipleChoicesQuestion } from "../../../src/ai/question-generation";
export type { QuestionContestResult } from "../../../src/services/recall-prompts/mcq";
export type { AnsweredQuestionJson, RecallPromptJson } from "../../../src/services/recall-prompts/presenters";
export type { SpellingQuestionJson, SpellingResultJson } from "../../../src/services/spelling/spelling-service";

export const answeredQuestionPath = (recallPromptId: number) => `/d/answers/${recallPromptId}`;
