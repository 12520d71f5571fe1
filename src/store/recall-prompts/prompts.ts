/**
 * Multiple-choice questions about notes (predefined_questions: added by hand or made by the AI for
 * recall) and the recall prompts that put them to a learner for one memory tracker, with the
 * learner's answer. The only writer of both tables. Answering a prompt repeats its tracker in the
 * same unit (the memory store's bodies).
 */
import { and, asc, eq, isNull, not } from "drizzle-orm";
import type { predefinedQuestions, recallPrompts } from "../../db/schema";
import {
  type AnswerKeyRecord,
  type MemoryTrackerRow,
  type ReviewPlanner,
  recordAnswerKey,
  reviewTracker,
  storedOutcome,
} from "../memory/trackers";
import { all, lockRow, one, run, type Session, type Step } from "../session";

export type RecallPromptRow = typeof recallPrompts.$inferSelect;
export type PredefinedQuestionRow = typeof predefinedQuestions.$inferSelect;
export type NewQuestion = Pick<PredefinedQuestionRow, "multipleChoicesQuestion" | "correctAnswerIndex" | "approved" | "contested">;

/** A prompt with its question. */
export interface PromptWithQuestion {
  prompt: RecallPromptRow;
  question: PredefinedQuestionRow;
}

export function* question(s: Session, id: number): Step<PredefinedQuestionRow | undefined> {
  const q = s.t.predefinedQuestions;
  return yield* one(s, s.db.select().from(q).where(eq(q.id, id)));
}

export function* prompt(s: Session, id: number): Step<RecallPromptRow | undefined> {
  const p = s.t.recallPrompts;
  return yield* one(s, s.db.select().from(p).where(eq(p.id, id)));
}

/** The prompt with its question, or undefined when there is no such prompt. */
export function* promptWithQuestion(s: Session, id: number): Step<PromptWithQuestion | undefined> {
  const found = yield* prompt(s, id);
  if (!found) return undefined;
  return { prompt: found, question: (yield* question(s, found.predefinedQuestionId))! };
}

/**
 * The prompt to ask again for a memory tracker: the user's oldest unanswered prompt for that
 * tracker whose question is not contested.
 */
export function* reusablePrompt(s: Session, userId: number, trackerId: number): Step<PromptWithQuestion | undefined> {
  const { recallPrompts: p, predefinedQuestions: q } = s.t;
  const row = yield* one(
    s,
    s.db
      .select({ prompt: p, question: q })
      .from(p)
      .innerJoin(q, eq(q.id, p.predefinedQuestionId))
      .where(and(eq(p.userId, userId), eq(p.memoryTrackerId, trackerId), isNull(p.answeredAt), eq(q.contested, false)))
      .orderBy(asc(p.id))
      .limit(1),
  );
  return row;
}

/** Saves a question about a note. */
export function* insertQuestion(s: Session, noteId: number, values: NewQuestion, now: Date): Step<PredefinedQuestionRow> {
  return (yield* one(
    s,
    s.db
      .insert(s.t.predefinedQuestions)
      .values({ ...values, noteId, createdAt: now })
      .returning(),
  ))!;
}

function* insertPrompt(s: Session, userId: number, trackerId: number, questionId: number, now: Date): Step<RecallPromptRow> {
  return (yield* one(
    s,
    s.db
      .insert(s.t.recallPrompts)
      .values({ userId, memoryTrackerId: trackerId, predefinedQuestionId: questionId, createdAt: now })
      .returning(),
  ))!;
}

/**
 * Saves generated questions about the tracker's note and a prompt asking the last one; when a
 * request that ran at the same time saved a prompt for the tracker meanwhile, answers that one.
 */
export function* savePrompt(
  s: Session,
  userId: number,
  trackerId: number,
  noteId: number,
  questions: NewQuestion[],
  now: Date,
): Step<PromptWithQuestion> {
  // Requests for one tracker take turns from here, so the second sees the first's prompt.
  yield* lockRow(s, s.t.memoryTrackers, trackerId);
  const concurrent = yield* reusablePrompt(s, userId, trackerId);
  if (concurrent) return concurrent;
  let last: PredefinedQuestionRow | undefined;
  for (const values of questions) last = yield* insertQuestion(s, noteId, values, now);
  return { prompt: yield* insertPrompt(s, userId, trackerId, last!.id, now), question: last! };
}

/** Marks a prompt's question contested (never asked again) and keeps the advice on the prompt. */
export function* markContested(s: Session, promptId: number, questionId: number, advice: string): Step<void> {
  const { recallPrompts: p, predefinedQuestions: q } = s.t;
  yield* run(s, s.db.update(q).set({ contested: true }).where(eq(q.id, questionId)));
  yield* run(s, s.db.update(p).set({ contestAdvice: advice }).where(eq(p.id, promptId)));
}

/**
 * The contested prompt's question marked so, and a new question asked in a new prompt for the same
 * tracker; when a regeneration that ran at the same time replaced it meanwhile, answers that one.
 */
export function* replaceContested(
  s: Session,
  contested: RecallPromptRow,
  advice: string,
  noteId: number,
  values: NewQuestion,
  now: Date,
): Step<PromptWithQuestion> {
  // Requests for one tracker take turns from here (as in savePrompt), so the second sees the first's prompt.
  yield* lockRow(s, s.t.memoryTrackers, contested.memoryTrackerId);
  const concurrent = yield* reusablePrompt(s, contested.userId, contested.memoryTrackerId);
  if (concurrent && concurrent.prompt.id !== contested.id) return concurrent;
  yield* markContested(s, contested.id, contested.predefinedQuestionId, advice);
  const created = yield* insertQuestion(s, noteId, values, now);
  return { prompt: yield* insertPrompt(s, contested.userId, contested.memoryTrackerId, created.id, now), question: created };
}

export type PromptAnswer =
  | { status: "already-recorded" }
  | { status: "already-answered" }
  | { status: "answered"; prompt: RecallPromptRow; tracker: MemoryTrackerRow | undefined };

/**
 * Answers the user's prompt at `at` in one unit: a key already applied or a prompt answered before
 * changes nothing; otherwise the answer is saved, the prompt's tracker repeated as the planner says
 * (unless it is a spelling tracker or was removed from tracking meanwhile), and the key stored.
 */
export function* answerPrompt(
  s: Session,
  userId: number,
  promptId: number,
  answer: { choiceIndex: number; correct: boolean; at: Date },
  plan: ReviewPlanner,
  key?: AnswerKeyRecord,
): Step<PromptAnswer> {
  const { recallPrompts: p, memoryTrackers: m } = s.t;
  // The prompt's tracker is locked first (as savePrompt and a review lock it): answers of one
  // tracker, and a key sent twice, take turns from here, each reading the one before's schedule.
  const target = yield* one(
    s,
    s.db
      .select({ trackerId: p.memoryTrackerId })
      .from(p)
      .where(and(eq(p.id, promptId), eq(p.userId, userId))),
  );
  if (target) yield* lockRow(s, m, target.trackerId);
  if (key && (yield* storedOutcome(s, userId, key.key)) !== undefined) return { status: "already-recorded" };
  const answered = yield* one(
    s,
    s.db
      .update(p)
      .set({ answerChoiceIndex: answer.choiceIndex, answerCorrect: answer.correct, answeredAt: answer.at })
      .where(and(eq(p.id, promptId), eq(p.userId, userId), isNull(p.answeredAt)))
      .returning(),
  );
  if (!answered) return { status: "already-answered" };
  const tracker = yield* one(
    s,
    s.db
      .select()
      .from(m)
      .where(and(eq(m.id, answered.memoryTrackerId), eq(m.userId, userId), eq(m.spelling, false), eq(m.removedFromTracking, false))),
  );
  const saved = tracker ? yield* reviewTracker(s, userId, tracker, plan(tracker)) : undefined;
  if (key) yield* recordAnswerKey(s, userId, answered.memoryTrackerId, key);
  return { status: "answered", prompt: answered, tracker: saved };
}

/** Whether the user answered this question in one of their recall prompts (the answer page showed its key). */
export function* answeredInRecall(s: Session, userId: number, questionId: number): Step<boolean> {
  const p = s.t.recallPrompts;
  const row = yield* one(
    s,
    s.db
      .select({ id: p.id })
      .from(p)
      .where(and(eq(p.userId, userId), eq(p.predefinedQuestionId, questionId), not(isNull(p.answeredAt))))
      .limit(1),
  );
  return row !== undefined;
}

/** The note's questions still asked (not contested: withdrawn or replaced), oldest first. */
export function* questionsOfNote(s: Session, noteId: number): Step<PredefinedQuestionRow[]> {
  const q = s.t.predefinedQuestions;
  return yield* all(
    s,
    s.db
      .select()
      .from(q)
      .where(and(eq(q.noteId, noteId), eq(q.contested, false)))
      .orderBy(asc(q.id)),
  );
}

/**
 * The questions still asked of the notebook's undeleted notes, by note then age, with their note's
 * title, at most `limit`.
 */
export function* questionsOfNotebook(
  s: Session,
  notebookId: number,
  limit: number,
): Step<{ question: PredefinedQuestionRow; noteId: number; title: string }[]> {
  const { predefinedQuestions: q, notes } = s.t;
  return yield* all(
    s,
    s.db
      .select({ question: q, noteId: notes.id, title: notes.title })
      .from(q)
      .innerJoin(notes, eq(notes.id, q.noteId))
      .where(and(eq(notes.notebookId, notebookId), isNull(notes.deletedAt), eq(q.contested, false)))
      .orderBy(asc(notes.id), asc(q.id))
      .limit(limit),
  );
}

/** Withdraws a question (marked contested, its approval reset): what asked it keeps it, nothing asks it again. */
export function* withdrawQuestion(s: Session, questionId: number): Step<void> {
  const q = s.t.predefinedQuestions;
  yield* run(s, s.db.update(q).set({ contested: true, approved: false }).where(eq(q.id, questionId)));
}

/** The question as edited, in place of the old one, withdrawn in the same unit. */
export function* replaceQuestion(
  s: Session,
  questionId: number,
  noteId: number,
  values: NewQuestion,
  now: Date,
): Step<PredefinedQuestionRow> {
  yield* withdrawQuestion(s, questionId);
  return yield* insertQuestion(s, noteId, values, now);
}

/** Flips a question's approval in one UPDATE (two clicks at once give two flips); undefined when there is no such question. */
export function* toggleApproval(s: Session, questionId: number): Step<PredefinedQuestionRow | undefined> {
  const q = s.t.predefinedQuestions;
  return yield* one(
    s,
    s.db
      .update(q)
      .set({ approved: not(q.approved) })
      .where(eq(q.id, questionId))
      .returning(),
  );
}
