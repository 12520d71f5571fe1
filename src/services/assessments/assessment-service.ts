import type { MultipleChoicesQuestion } from "../../ai/question-generation";
import type { AppContext } from "../../context";
import type { AttemptRow, InstanceRow } from "../../store/assessments/assessments-store";
import { BadRequestError, NotFoundError, ValidationError } from "../errors";
import { type NotebookRow, requireNotebook } from "../notes/rows";
import { authorizeAssessment, authorizeOwnRecord } from "../policies";
import type { CurrentUser } from "../users";
import { expiryFrom } from "./expiry";

/** A pass needs at least this share of right answers (spec 9). */
export const PASS_MARK = 0.8;

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

const notebookTitle = async (ctx: AppContext, notebook: NotebookRow) =>
  (notebook.headNoteId !== null ? (await ctx.stores.notes.noteById(notebook.headNoteId))?.title : undefined) ?? "";

async function presentAttempt(ctx: AppContext, attempt: AttemptRow, rows: InstanceRow[]): Promise<AssessmentAttemptJson> {
  const notebook = await requireNotebook(ctx, attempt.notebookId);
  return {
    id: attempt.id,
    notebookId: attempt.notebookId,
    notebookTitle: await notebookTitle(ctx, notebook),
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
async function drawQuestions(ctx: AppContext, notebook: NotebookRow, count: number) {
  const approved = await ctx.stores.assessments.approvedQuestions(notebook.id);
  const byNote = new Map<number, (typeof approved)[number][]>();
  for (const question of approved) byNote.set(question.noteId, [...(byNote.get(question.noteId) ?? []), question]);
  const onePerNote = [...byNote.values()].map((questions) => ctx.randomizer.choose(questions)!);
  return ctx.randomizer.shuffle(onePerNote).slice(0, count);
}

export const NOT_AVAILABLE = "The assessment is not available";
export const NOT_ENOUGH_QUESTIONS = "Not enough questions";

/** POST /assessment/questions/{notebook}: starts an attempt with the drawn questions. */
export async function startAssessment(
  ctx: AppContext,
  current: CurrentUser | undefined,
  notebookId: number,
): Promise<AssessmentAttemptJson> {
  const notebook = await requireNotebook(ctx, notebookId);
  await authorizeAssessment(ctx, current, notebook);
  const count = notebook.numberOfQuestionsInAssessment ?? 0;
  if (count <= 0) throw new BadRequestError(NOT_AVAILABLE);
  const drawn = await drawQuestions(ctx, notebook, count);
  if (drawn.length < count) throw new BadRequestError(NOT_ENOUGH_QUESTIONS);
  const { attempt, instances } = await ctx.stores.assessments.startAttempt(current!.user.id, notebook.id, drawn, ctx.clock.now());
  return presentAttempt(ctx, attempt, instances);
}

async function ownAttempt(ctx: AppContext, current: CurrentUser | undefined, attemptId: number): Promise<AttemptRow> {
  const attempt = await ctx.stores.assessments.attempt(attemptId);
  if (!attempt) throw new NotFoundError("Assessment attempt");
  authorizeOwnRecord(current, attempt.userId, "assessment attempt");
  return attempt;
}

/** An assessment question of the user's own attempt, with its attempt. */
export async function ownQuestionInstance(ctx: AppContext, current: CurrentUser | undefined, instanceId: number) {
  const found = await ctx.stores.assessments.instanceWithAttempt(instanceId);
  if (!found) throw new NotFoundError("Assessment question");
  authorizeOwnRecord(current, found.attempt.userId, "assessment attempt");
  return found;
}

const SUBMITTED = "This assessment has been submitted already";

/** POST /assessment/{instance}/answer: once per question, before the attempt is submitted. */
export async function answerAssessmentQuestion(
  ctx: AppContext,
  current: CurrentUser | undefined,
  instanceId: number,
  choiceIndex: unknown,
): Promise<AssessmentQuestionInstanceJson> {
  const { instance } = await ownQuestionInstance(ctx, current, instanceId);
  const choices = (JSON.parse(instance.multipleChoicesQuestion) as MultipleChoicesQuestion).choices;
  if (typeof choiceIndex !== "number" || !Number.isInteger(choiceIndex) || choiceIndex < 0 || choiceIndex >= choices.length) {
    throw new ValidationError({ choiceIndex: `must be a choice from 0 to ${choices.length - 1}` });
  }
  const correct = choiceIndex === instance.correctAnswerIndex;
  // Only an unanswered question takes the answer: a repeated request changes nothing and counts nothing.
  const answered = await ctx.stores.assessments.answerQuestion(instance.id, choiceIndex, correct, ctx.clock.now());
  if (answered.status === "submitted") throw new BadRequestError(SUBMITTED);
  if (answered.status === "answered-already") throw new BadRequestError("This question has been answered already");
  return presentInstance(answered.instance);
}

/**
 * POST /assessment/{attempt}: submits once. A pass (at least 80% right) on a certifiable notebook
 * issues the certificate, or renews it, in the same unit.
 */
export async function submitAssessment(
  ctx: AppContext,
  current: CurrentUser | undefined,
  attemptId: number,
): Promise<AssessmentAttemptJson> {
  const attempt = await ownAttempt(ctx, current, attemptId);
  const submitted = await ctx.stores.assessments.submit(attempt.id, ctx.clock.now(), PASS_MARK, expiryFrom);
  if (!submitted) throw new BadRequestError(SUBMITTED);
  return presentAttempt(ctx, submitted, await ctx.stores.assessments.instancesOf([submitted.id]));
}

/** GET /assessment: the user's attempts, newest first. */
export async function attemptsOf(ctx: AppContext, current: CurrentUser): Promise<AssessmentAttemptJson[]> {
  const { attempts, instances } = await ctx.stores.assessments.attemptsOf(current.user.id);
  return Promise.all(
    attempts.map((attempt) =>
      presentAttempt(
        ctx,
        attempt,
        instances.filter((i) => i.attemptId === attempt.id),
      ),
    ),
  );
}
