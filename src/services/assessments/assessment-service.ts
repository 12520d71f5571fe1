import { and, asc, desc, eq, inArray, isNull } from "drizzle-orm";
import type { MultipleChoicesQuestion } from "../../ai/question-generation";
import type { AppContext } from "../../context";
import { assessmentAttempts, assessmentQuestionInstances, notebooks, notes, predefinedQuestions } from "../../db/schema";
import { BadRequestError, NotFoundError, ValidationError } from "../errors";
import { findNote, getNotebook, type NotebookRow } from "../notes/rows";
import { authorizeAssessment, authorizeOwnRecord } from "../policies";
import type { CurrentUser } from "../users";
import { issueOrRenewCertificate } from "./certificates";

/** A pass needs at least this share of right answers (spec 9). */
export const PASS_MARK = 0.8;

type AttemptRow = typeof assessmentAttempts.$inferSelect;
type InstanceRow = typeof assessmentQuestionInstances.$inferSelect;

/** AssessmentQuestionInstance: the question as put (never its correct index) and the answer once given. */
export interface AssessmentQuestionInstanceJson {
  id: number;
  multipleChoicesQuestion: MultipleChoicesQuestion;
  answer?: { id: number; choiceIndex: number; correct: boolean };
}

/** AssessmentAttempt. */
export interface AssessmentAttemptJson {
  id: number;
  notebookId: number;
  notebookTitle: string;
  totalQuestionCount: number;
  answersCorrect: number;
  assessmentQuestionInstances: AssessmentQuestionInstanceJson[];
  certifiable: boolean;
  submittedAt?: string;
  isPass?: boolean;
  /** When the attempt began (an Engram addition: the history's "Attempt At" for unsubmitted attempts). */
  createdAt: string;
}

function presentInstance(row: InstanceRow): AssessmentQuestionInstanceJson {
  return {
    id: row.id,
    multipleChoicesQuestion: JSON.parse(row.multipleChoicesQuestion) as MultipleChoicesQuestion,
    ...(row.answerChoiceIndex !== null
      ? { answer: { id: row.id, choiceIndex: row.answerChoiceIndex, correct: row.answerCorrect === true } }
      : {}),
  };
}

const notebookTitle = (ctx: AppContext, notebook: NotebookRow) =>
  (notebook.headNoteId !== null ? findNote(ctx, notebook.headNoteId)?.title : undefined) ?? "";

function presentAttempt(ctx: AppContext, attempt: AttemptRow, instances?: InstanceRow[]): AssessmentAttemptJson {
  const notebook = getNotebook(ctx, attempt.notebookId);
  const rows =
    instances ??
    ctx.db
      .select()
      .from(assessmentQuestionInstances)
      .where(eq(assessmentQuestionInstances.attemptId, attempt.id))
      .orderBy(asc(assessmentQuestionInstances.position))
      .all();
  return {
    id: attempt.id,
    notebookId: attempt.notebookId,
    notebookTitle: notebookTitle(ctx, notebook),
    totalQuestionCount: attempt.totalQuestionCount,
    answersCorrect: attempt.answersCorrect,
    assessmentQuestionInstances: rows.map(presentInstance),
    certifiable: notebook.certifiable,
    ...(attempt.submittedAt ? { submittedAt: attempt.submittedAt.toISOString(), isPass: attempt.isPass === true } : {}),
    createdAt: attempt.createdAt.toISOString(),
  };
}

/**
 * The questions an assessment draws: approved questions of the notebook's undeleted notes, at
 * most one per note (picked by the randomizer), the notes in random order.
 */
function drawQuestions(ctx: AppContext, notebook: NotebookRow, count: number) {
  const approved = ctx.db
    .select({ question: predefinedQuestions })
    .from(predefinedQuestions)
    .innerJoin(notes, eq(notes.id, predefinedQuestions.noteId))
    .where(and(eq(notes.notebookId, notebook.id), isNull(notes.deletedAt), eq(predefinedQuestions.approved, true)))
    .orderBy(asc(predefinedQuestions.noteId), asc(predefinedQuestions.id))
    .all()
    .map((row) => row.question);
  const byNote = new Map<number, (typeof approved)[number][]>();
  for (const question of approved) byNote.set(question.noteId, [...(byNote.get(question.noteId) ?? []), question]);
  const onePerNote = [...byNote.values()].map((questions) => ctx.randomizer.choose(questions)!);
  return ctx.randomizer.shuffle(onePerNote).slice(0, count);
}

export const NOT_AVAILABLE = "The assessment is not available";
export const NOT_ENOUGH_QUESTIONS = "Not enough questions";

/** POST /assessment/questions/{notebook}: starts an attempt with the drawn questions. */
export function startAssessment(ctx: AppContext, current: CurrentUser | undefined, notebookId: number): AssessmentAttemptJson {
  const notebook = getNotebook(ctx, notebookId);
  authorizeAssessment(ctx, current, notebook);
  const count = notebook.numberOfQuestionsInAssessment ?? 0;
  if (count <= 0) throw new BadRequestError(NOT_AVAILABLE);
  const drawn = drawQuestions(ctx, notebook, count);
  if (drawn.length < count) throw new BadRequestError(NOT_ENOUGH_QUESTIONS);
  const now = ctx.clock.now();
  const { attempt, instances } = ctx.db.transaction((tx) => {
    const attempt = tx
      .insert(assessmentAttempts)
      .values({ userId: current!.user.id, notebookId: notebook.id, totalQuestionCount: drawn.length, createdAt: now })
      .returning()
      .get();
    const instances = drawn.map((question, position) =>
      tx
        .insert(assessmentQuestionInstances)
        .values({
          attemptId: attempt.id,
          predefinedQuestionId: question.id,
          position,
          multipleChoicesQuestion: question.multipleChoicesQuestion,
          correctAnswerIndex: question.correctAnswerIndex,
        })
        .returning()
        .get(),
    );
    return { attempt, instances };
  });
  return presentAttempt(ctx, attempt, instances);
}

function ownAttempt(ctx: AppContext, current: CurrentUser | undefined, attemptId: number): AttemptRow {
  const attempt = ctx.db.select().from(assessmentAttempts).where(eq(assessmentAttempts.id, attemptId)).get();
  if (!attempt) throw new NotFoundError("Assessment attempt");
  authorizeOwnRecord(current, attempt.userId, "assessment attempt");
  return attempt;
}

/** An assessment question of the user's own attempt, with its attempt. */
export function ownQuestionInstance(ctx: AppContext, current: CurrentUser | undefined, instanceId: number) {
  const instance = ctx.db.select().from(assessmentQuestionInstances).where(eq(assessmentQuestionInstances.id, instanceId)).get();
  if (!instance) throw new NotFoundError("Assessment question");
  return { instance, attempt: ownAttempt(ctx, current, instance.attemptId) };
}

/** POST /assessment/{instance}/answer: once per question, before the attempt is submitted. */
export function answerAssessmentQuestion(ctx: AppContext, current: CurrentUser | undefined, instanceId: number, choiceIndex: unknown) {
  const { instance } = ownQuestionInstance(ctx, current, instanceId);
  const choices = (JSON.parse(instance.multipleChoicesQuestion) as MultipleChoicesQuestion).choices;
  if (typeof choiceIndex !== "number" || !Number.isInteger(choiceIndex) || choiceIndex < 0 || choiceIndex >= choices.length) {
    throw new ValidationError({ choiceIndex: `must be a choice from 0 to ${choices.length - 1}` });
  }
  const correct = choiceIndex === instance.correctAnswerIndex;
  const answered = ctx.db.transaction((tx) => {
    const attempt = tx.select().from(assessmentAttempts).where(eq(assessmentAttempts.id, instance.attemptId)).get()!;
    if (attempt.submittedAt) throw new BadRequestError("This assessment has been submitted already");
    // Only an unanswered question takes the answer: a repeated request changes nothing and counts nothing.
    const row = tx
      .update(assessmentQuestionInstances)
      .set({ answerChoiceIndex: choiceIndex, answerCorrect: correct, answeredAt: ctx.clock.now() })
      .where(and(eq(assessmentQuestionInstances.id, instance.id), isNull(assessmentQuestionInstances.answerChoiceIndex)))
      .returning()
      .get();
    if (!row) throw new BadRequestError("This question has been answered already");
    if (correct)
      tx.update(assessmentAttempts)
        .set({ answersCorrect: attempt.answersCorrect + 1 })
        .where(eq(assessmentAttempts.id, attempt.id))
        .run();
    return row;
  });
  return presentInstance(answered);
}

/**
 * POST /assessment/{attempt}: submits once. A pass (at least 80% right) on a certifiable notebook
 * issues the certificate, or renews it, in the same transaction.
 */
export function submitAssessment(ctx: AppContext, current: CurrentUser | undefined, attemptId: number): AssessmentAttemptJson {
  const attempt = ownAttempt(ctx, current, attemptId);
  const now = ctx.clock.now();
  const submitted = ctx.db.transaction((tx) => {
    const fresh = tx.select().from(assessmentAttempts).where(eq(assessmentAttempts.id, attempt.id)).get()!;
    if (fresh.submittedAt) throw new BadRequestError("This assessment has been submitted already");
    const isPass = fresh.totalQuestionCount > 0 && fresh.answersCorrect / fresh.totalQuestionCount >= PASS_MARK;
    const row = tx
      .update(assessmentAttempts)
      .set({ submittedAt: now, isPass })
      .where(eq(assessmentAttempts.id, fresh.id))
      .returning()
      .get()!;
    const notebook = tx.select().from(notebooks).where(eq(notebooks.id, row.notebookId)).get()!;
    if (isPass && notebook.certifiable) issueOrRenewCertificate(tx, current!.user.id, notebook, now);
    return row;
  });
  return presentAttempt(ctx, submitted);
}

/** GET /assessment: the user's attempts, newest first. */
export function attemptsOf(ctx: AppContext, current: CurrentUser): AssessmentAttemptJson[] {
  const attempts = ctx.db
    .select()
    .from(assessmentAttempts)
    .where(eq(assessmentAttempts.userId, current.user.id))
    .orderBy(desc(assessmentAttempts.createdAt), desc(assessmentAttempts.id))
    .all();
  if (attempts.length === 0) return [];
  const instances = ctx.db
    .select()
    .from(assessmentQuestionInstances)
    .where(
      inArray(
        assessmentQuestionInstances.attemptId,
        attempts.map((a) => a.id),
      ),
    )
    .orderBy(asc(assessmentQuestionInstances.position))
    .all();
  return attempts.map((attempt) =>
    presentAttempt(
      ctx,
      attempt,
      instances.filter((i) => i.attemptId === attempt.id),
    ),
  );
}
