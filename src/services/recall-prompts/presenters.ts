import type { MultipleChoicesQuestion } from "../../ai/question-generation";
import type { AppContext } from "../../context";
import { type NotebookJson, type NoteJson, NotePresenter, presentNotebooks } from "../notes/presenters";
import type { Reader } from "../policies";
import { type LoadedPrompt, storedQuestion } from "./rows";

/** RecallPrompt of the reference's API contract: the question while it is asked (no correct index). */
export interface RecallPromptJson {
  id: number;
  multipleChoicesQuestion: MultipleChoicesQuestion;
  notebook: NotebookJson;
}

/** AnsweredQuestion of the reference's API contract. */
export interface AnsweredQuestionJson {
  note: NoteJson;
  predefinedQuestion: { id: number; multipleChoicesQuestion: MultipleChoicesQuestion; correctAnswerIndex: number; approved: boolean };
  answer: { id: number; choiceIndex: number; correct: boolean };
  answerDisplay: string;
  recallPromptId: number;
}

export async function presentRecallPrompt(
  ctx: AppContext,
  reader: Reader,
  { prompt, question, notebook }: LoadedPrompt,
): Promise<RecallPromptJson> {
  const [notebookJson] = await presentNotebooks(ctx, reader, [notebook]);
  return { id: prompt.id, multipleChoicesQuestion: storedQuestion(question), notebook: notebookJson! };
}

/**
 * The answered question: the note with its ancestors (for the "Note under question"
 * breadcrumb), the question with its correct index, and the answer. The answer's id is the
 * prompt's (one answer per prompt).
 */
export async function presentAnsweredQuestion(
  ctx: AppContext,
  reader: Reader,
  { prompt, question, note }: LoadedPrompt,
): Promise<AnsweredQuestionJson> {
  const ancestors = await ctx.stores.notes.ancestorsOf(note);
  const presenter = await new NotePresenter(ctx, reader).load([note, ...ancestors]);
  const mcq = storedQuestion(question);
  const choiceIndex = prompt.answerChoiceIndex ?? -1;
  return {
    note: presenter.note(note, { ancestors }),
    predefinedQuestion: {
      id: question.id,
      multipleChoicesQuestion: mcq,
      correctAnswerIndex: question.correctAnswerIndex,
      approved: question.approved,
    },
    answer: { id: prompt.id, choiceIndex, correct: prompt.answerCorrect === true },
    answerDisplay: mcq.choices[choiceIndex] ?? "",
    recallPromptId: prompt.id,
  };
}
