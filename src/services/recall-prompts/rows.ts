import { and, asc, eq, isNull } from "drizzle-orm";
import type { McqWithAnswer, MultipleChoicesQuestion } from "../../ai/question-generation";
import type { AppContext } from "../../context";
import type { DbHandle } from "../../db/connection";
import { predefinedQuestions, recallPrompts } from "../../db/schema";
import { NotFoundError } from "../errors";
import { getNote, getNotebook, type NotebookRow, type NoteRow } from "../notes/rows";
import { authorizeOwnRecord, authorizeRead } from "../policies";
import type { CurrentUser } from "../users";

export type RecallPromptRow = typeof recallPrompts.$inferSelect;
export type PredefinedQuestionRow = typeof predefinedQuestions.$inferSelect;

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

function questionById(ctx: AppContext, id: number): PredefinedQuestionRow {
  const row = ctx.db.select().from(predefinedQuestions).where(eq(predefinedQuestions.id, id)).get();
  if (!row) throw new NotFoundError("Question");
  return row;
}

/** With its question, note and notebook; the note's notebook must be readable. */
export function loadPrompt(ctx: AppContext, current: CurrentUser, prompt: RecallPromptRow): LoadedPrompt {
  const loaded = loadPromptOf(ctx, prompt);
  authorizeRead(ctx, current, loaded.notebook);
  return loaded;
}

/** With its question, note and notebook, for a caller the policy has already let in (a conversation's party). */
export function loadPromptOf(ctx: AppContext, prompt: RecallPromptRow): LoadedPrompt {
  const question = questionById(ctx, prompt.predefinedQuestionId);
  const note = getNote(ctx, question.noteId);
  return { prompt, question, note, notebook: getNotebook(ctx, note.notebookId) };
}

/** The user's own recall prompt: 404 when there is none, 403 when it was put to someone else. */
export function ownRecallPrompt(ctx: AppContext, current: CurrentUser, promptId: number): LoadedPrompt {
  const prompt = ctx.db.select().from(recallPrompts).where(eq(recallPrompts.id, promptId)).get();
  if (!prompt) throw new NotFoundError("Recall prompt");
  authorizeOwnRecord(current, prompt.userId, "recall prompt");
  return loadPrompt(ctx, current, prompt);
}

/**
 * The prompt to ask again for a memory tracker (docs/decisions.md, decision 6): the user's oldest unanswered prompt
 * for that tracker whose question is not contested.
 */
export function reusablePrompt(ctx: AppContext, userId: number, trackerId: number): RecallPromptRow | undefined {
  return ctx.db
    .select({ prompt: recallPrompts })
    .from(recallPrompts)
    .innerJoin(predefinedQuestions, eq(predefinedQuestions.id, recallPrompts.predefinedQuestionId))
    .where(
      and(
        eq(recallPrompts.userId, userId),
        eq(recallPrompts.memoryTrackerId, trackerId),
        isNull(recallPrompts.answeredAt),
        eq(predefinedQuestions.contested, false),
      ),
    )
    .orderBy(asc(recallPrompts.id))
    .get()?.prompt;
}

/** Saves a generated question about a note (not approved; contested when the check found it wanting). */
export function insertQuestion(tx: DbHandle, now: Date, noteId: number, mcq: McqWithAnswer, contested: boolean): PredefinedQuestionRow {
  const { stem, choices } = mcq.multipleChoicesQuestion;
  return tx
    .insert(predefinedQuestions)
    .values({
      noteId,
      multipleChoicesQuestion: JSON.stringify({ stem, choices }),
      correctAnswerIndex: mcq.correctChoiceIndex,
      approved: false,
      contested,
      createdAt: now,
    })
    .returning()
    .get();
}

export function insertPrompt(tx: DbHandle, now: Date, userId: number, trackerId: number, questionId: number): RecallPromptRow {
  return tx
    .insert(recallPrompts)
    .values({ userId, memoryTrackerId: trackerId, predefinedQuestionId: questionId, createdAt: now })
    .returning()
    .get();
}

/** Marks a prompt's question contested (never asked again) and keeps the advice on the prompt. Call inside a transaction. */
export function markContested(tx: DbHandle, loaded: LoadedPrompt, advice: string) {
  tx.update(predefinedQuestions).set({ contested: true }).where(eq(predefinedQuestions.id, loaded.question.id)).run();
  tx.update(recallPrompts).set({ contestAdvice: advice }).where(eq(recallPrompts.id, loaded.prompt.id)).run();
}
