/**
 * A note's multiple-choice questions (spec 7 "Predefined questions"): those added by hand and
 * those the AI made for recall share the predefined_questions table. Listing, adding, editing,
 * deleting and approving (approved questions are what assessments draw from).
 *
 * A question edited or deleted is withdrawn, not erased: recall prompts and assessments that asked
 * it keep it (what the learner saw and answered stays as it was). A withdrawn question is marked
 * contested, which already means "never listed or asked again" (rows.ts).
 */
import type { AppContext } from "../../context";
import type { NewQuestion } from "../../store/recall-prompts/recall-prompts-store";
import { NotFoundError } from "../errors";
import { type NotebookRow, type NoteRow, requireNotebook, requireNoteWithNotebook } from "../notes/rows";
import { authorizeEdit, authorizeRead, mayReadAnswerKeys, notebookRole } from "../policies";
import type { PredefinedQuestionRow } from "../recall-prompts/rows";
import type { CurrentUser } from "../users";
import { type NoteQuestionsJson, type PredefinedQuestionJson, presentPredefinedQuestion } from "./presenters";
import { validateQuestion } from "./validation";

/** A question as a notebook's editor wrote it: not approved yet. */
function handWritten(input: ReturnType<typeof validateQuestion>): NewQuestion {
  const { stem, choices } = input.multipleChoicesQuestion;
  return {
    multipleChoicesQuestion: JSON.stringify({ stem, choices }),
    correctAnswerIndex: input.correctAnswerIndex,
    approved: false,
    contested: false,
  };
}

/** Most questions the notebook's list shows (a notebook's page, not an export). */
export const MAX_NOTEBOOK_QUESTIONS = 2000;

/** The note with its notebook, after the caller proved it may read it (401/403/404 otherwise). */
export async function readableNote(
  ctx: AppContext,
  current: CurrentUser | undefined,
  noteId: number,
): Promise<{ note: NoteRow; notebook: NotebookRow }> {
  const { note, notebook } = await requireNoteWithNotebook(ctx, noteId);
  await authorizeRead(ctx, current, notebook);
  return { note, notebook };
}

/** The note with its notebook, for someone who may edit it; a deleted note takes no new questions (404). */
export async function editableNote(
  ctx: AppContext,
  current: CurrentUser | undefined,
  noteId: number,
): Promise<{ note: NoteRow; notebook: NotebookRow }> {
  const { note, notebook } = await requireNoteWithNotebook(ctx, noteId);
  await authorizeEdit(ctx, current, notebook);
  if (note.deletedAt) throw new NotFoundError("Note");
  return { note, notebook };
}

/** A question with its note and notebook; 404 when there is no such question. */
export async function loadQuestion(
  ctx: AppContext,
  questionId: number,
): Promise<{ question: PredefinedQuestionRow; note: NoteRow; notebook: NotebookRow }> {
  const question = await ctx.stores.recallPrompts.question(questionId);
  if (!question) throw new NotFoundError("Question");
  return { question, ...(await requireNoteWithNotebook(ctx, question.noteId)) };
}

/**
 * GET /predefined-questions/{note}/note-questions: the note's questions, oldest first, for anyone
 * who may read the note; the correct index for the notebook's editors only (a reader with the key
 * would pass the assessment). Questions the automatic check contested (replaced by a better one
 * and never asked again) are left out.
 */
export async function noteQuestions(ctx: AppContext, current: CurrentUser, noteId: number): Promise<PredefinedQuestionJson[]> {
  const { notebook } = await readableNote(ctx, current, noteId);
  const withAnswerKey = mayReadAnswerKeys(await notebookRole(ctx, current, notebook));
  return (await ctx.stores.recallPrompts.questionsOfNote(noteId)).map((row) => presentPredefinedQuestion(row, withAnswerKey));
}

/** POST /predefined-questions/{note}/note-questions: adds a question by hand (not approved yet). Editors only. */
export async function addQuestion(ctx: AppContext, current: CurrentUser, noteId: number, body: unknown): Promise<PredefinedQuestionJson> {
  const { note } = await editableNote(ctx, current, noteId);
  const input = validateQuestion(body);
  const row = await ctx.stores.recallPrompts.insertQuestion(note.id, handWritten(input), ctx.clock.now());
  return presentPredefinedQuestion(row, true);
}

/** A question an editor may change: not withdrawn (404 when it is), of a note that is not deleted. */
async function editableQuestion(ctx: AppContext, current: CurrentUser, questionId: number) {
  const loaded = await loadQuestion(ctx, questionId);
  await authorizeEdit(ctx, current, loaded.notebook);
  if (loaded.question.contested || loaded.note.deletedAt) throw new NotFoundError("Question");
  return loaded;
}

/**
 * PATCH /predefined-questions/{id} (not in the reference API): the question as edited, in place of
 * the old one, which is withdrawn in the same transaction. Its approval is reset: an assessment
 * asks it again only once someone approves what it now says. Answers the new question (a new id).
 */
export async function updateQuestion(
  ctx: AppContext,
  current: CurrentUser,
  questionId: number,
  body: unknown,
): Promise<PredefinedQuestionJson> {
  const { question, note } = await editableQuestion(ctx, current, questionId);
  const input = validateQuestion(body);
  const row = await ctx.stores.recallPrompts.replaceQuestion(question.id, note.id, handWritten(input), ctx.clock.now());
  // Only the notebook's editors get here: they see the answer key.
  return presentPredefinedQuestion(row, true);
}

/** POST /predefined-questions/{id}/delete (not in the reference API): withdraws the question. */
export async function deleteQuestion(ctx: AppContext, current: CurrentUser, questionId: number): Promise<void> {
  const { question } = await editableQuestion(ctx, current, questionId);
  await ctx.stores.recallPrompts.withdrawQuestion(question.id);
}

/**
 * POST /predefined-questions/{id}/toggle-approval: approves or withdraws the approval of a
 * question, for those who may edit its notebook. One UPDATE flips the stored value, so two
 * clicks at once give two flips, never a lost one.
 */
export async function toggleApproval(ctx: AppContext, current: CurrentUser, questionId: number): Promise<PredefinedQuestionJson> {
  const { notebook } = await loadQuestion(ctx, questionId);
  await authorizeEdit(ctx, current, notebook);
  const row = await ctx.stores.recallPrompts.toggleApproval(questionId);
  if (!row) throw new NotFoundError("Question");
  return presentPredefinedQuestion(row, true);
}

/**
 * GET /predefined-questions/notebook/{notebook}/questions: every question of the notebook's notes
 * (not deleted, not contested), grouped by note, for those who may edit it (the notebooks page
 * shows it to the creator as "Notebook Questions"). Not in the reference API: it saves the
 * dialog one request per note.
 */
export async function notebookQuestions(ctx: AppContext, current: CurrentUser, notebookId: number): Promise<NoteQuestionsJson[]> {
  const notebook = await requireNotebook(ctx, notebookId);
  await authorizeEdit(ctx, current, notebook);
  const rows = await ctx.stores.recallPrompts.questionsOfNotebook(notebook.id, MAX_NOTEBOOK_QUESTIONS);
  const groups: NoteQuestionsJson[] = [];
  for (const row of rows) {
    let group = groups.at(-1);
    if (group?.note.id !== row.noteId) {
      group = { note: { id: row.noteId, title: row.title }, questions: [] };
      groups.push(group);
    }
    group.questions.push(presentPredefinedQuestion(row.question, true));
  }
  return groups;
}
