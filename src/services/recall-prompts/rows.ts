import type { MultipleChoicesQuestion } from "../../ai/question-generation";
import type { AppContext } from "../../context";
import type { PredefinedQuestionRow, PromptWithQuestion, RecallPromptRow } from "../../store/recall-prompts/recall-prompts-store";
import { NotFoundError } from "../errors";
import { type NotebookRow, type NoteRow, requireNoteWithNotebook } from "../notes/rows";
import { authorizeOwnRecord, authorizeRead } from "../policies";
import type { CurrentUser } from "../users";

export type { PredefinedQuestionRow, RecallPromptRow } from "../../store/recall-prompts/recall-prompts-store";

/** A recall prompt with what presenting or answering it needs. */
export interface LoadedPrompt {
  prompt: RecallPromptRow;
  question: PredefinedQuestionRow;
  note: NoteRow;
  notebook: NotebookRow;
}

/** The stored {stem, choices} of a question. */
export function storedQuestion(row: PredefinedQuestionRow): MultipleChoicesQuestion {
  const parsed = JSON.parse(row.multipleChoicesQuestion) as Partial<MultipleChoicesQuestion>;
  return { stem: parsed.stem ?? "", choices: Array.isArray(parsed.choices) ? parsed.choices : [] };
}

/** A prompt and its question with the question's note and notebook. */
export async function withNote(ctx: AppContext, { prompt, question }: PromptWithQuestion): Promise<LoadedPrompt> {
  const { note, notebook } = await requireNoteWithNotebook(ctx, question.noteId);
  return { prompt, question, note, notebook };
}

/** With its question, note and notebook; the note's notebook must be readable. */
export async function readablePrompt(ctx: AppContext, current: CurrentUser, found: PromptWithQuestion): Promise<LoadedPrompt> {
  const loaded = await withNote(ctx, found);
  await authorizeRead(ctx, current, loaded.notebook);
  return loaded;
}

/** With its question, note and notebook, for a caller the policy has already let in (a conversation's party). */
export async function loadPromptOf(ctx: AppContext, prompt: RecallPromptRow): Promise<LoadedPrompt> {
  const question = await ctx.stores.recallPrompts.question(prompt.predefinedQuestionId);
  if (!question) throw new NotFoundError("Question");
  return withNote(ctx, { prompt, question });
}

/** The user's own recall prompt: 404 when there is none, 403 when it was put to someone else. */
export async function ownRecallPrompt(ctx: AppContext, current: CurrentUser, promptId: number): Promise<LoadedPrompt> {
  const found = await ctx.stores.recallPrompts.promptWithQuestion(promptId);
  if (!found) throw new NotFoundError("Recall prompt");
  authorizeOwnRecord(current, found.prompt.userId, "recall prompt");
  return readablePrompt(ctx, current, found);
}
