/**
 * Assessments and certificates: notebooks' certification requests and their approvals, the
 * attempts at a notebook's assessment with the questions as they were put and answered, and the
 * certificates a pass issues. The only writer of notebook_certificate_approvals,
 * assessment_attempts, assessment_question_instances and certificates; a notebook becomes
 * certifiable through the notes store's body (notes/notebook-certification.ts) in the same unit.
 */
import { and, asc, desc, eq, isNull } from "drizzle-orm";
import type {
  assessmentAttempts,
  assessmentQuestionInstances,
  certificates,
  notebookCertificateApprovals,
  predefinedQuestions,
} from "../../db/schema";
import { defineStore, read, type StoreOf, write } from "../define";
import { setCertification } from "../notes/notebook-certification";
import { all, forUpdate, inIds, one, run, type Session, type Step } from "../session";

export type ApprovalRow = typeof notebookCertificateApprovals.$inferSelect;
export type AttemptRow = typeof assessmentAttempts.$inferSelect;
export type InstanceRow = typeof assessmentQuestionInstances.$inferSelect;
export type CertificateRow = typeof certificates.$inferSelect;
type QuestionRow = typeof predefinedQuestions.$inferSelect;

export function* approvalOfNotebook(s: Session, notebookId: number): Step<ApprovalRow | undefined> {
  const a = s.t.notebookCertificateApprovals;
  return yield* one(s, s.db.select().from(a).where(eq(a.notebookId, notebookId)));
}

/** The notebook's certification request, made now unless it was made before (asking again changes nothing). */
export function* requestApproval(s: Session, notebookId: number, now: Date): Step<ApprovalRow> {
  yield* run(s, s.db.insert(s.t.notebookCertificateApprovals).values({ notebookId, createdAt: now }).onConflictDoNothing());
  return (yield* approvalOfNotebook(s, notebookId))!;
}

/** The requests still waiting for an admin, oldest first. */
export function* pendingApprovals(s: Session): Step<ApprovalRow[]> {
  const a = s.t.notebookCertificateApprovals;
  return yield* all(s, s.db.select().from(a).where(isNull(a.lastApprovalTime)).orderBy(asc(a.id)));
}

/** Approves a request: its notebook becomes certifiable in the same unit. Undefined when there is no such request. */
export function* approve(s: Session, approvalId: number, now: Date): Step<ApprovalRow | undefined> {
  const a = s.t.notebookCertificateApprovals;
  const updated = yield* one(s, s.db.update(a).set({ lastApprovalTime: now }).where(eq(a.id, approvalId)).returning());
  if (updated) yield* setCertification(s, updated.notebookId, { certifiable: true });
  return updated;
}

/** Approves the notebook's certification at `now`, requested or not (the test endpoints). */
export function* approveNotebook(s: Session, notebookId: number, now: Date): Step<void> {
  const a = s.t.notebookCertificateApprovals;
  yield* run(
    s,
    s.db
      .insert(a)
      .values({ notebookId, lastApprovalTime: now, createdAt: now })
      .onConflictDoUpdate({ target: a.notebookId, set: { lastApprovalTime: now } }),
  );
}

/** The approved questions of the notebook's undeleted notes, by note then age (what an assessment draws from). */
export function* approvedQuestions(s: Session, notebookId: number): Step<QuestionRow[]> {
  const { predefinedQuestions: q, notes } = s.t;
  const rows = yield* all(
    s,
    s.db
      .select({ question: q })
      .from(q)
      .innerJoin(notes, eq(notes.id, q.noteId))
      .where(and(eq(notes.notebookId, notebookId), isNull(notes.deletedAt), eq(q.approved, true)))
      .orderBy(asc(q.noteId), asc(q.id)),
  );
  return rows.map((row) => row.question);
}

/** Starts an attempt with the drawn questions, copied as they are now. */
export function* startAttempt(
  s: Session,
  userId: number,
  notebookId: number,
  questions: QuestionRow[],
  now: Date,
): Step<{ attempt: AttemptRow; instances: InstanceRow[] }> {
  const attempt = (yield* one(
    s,
    s.db.insert(s.t.assessmentAttempts).values({ userId, notebookId, totalQuestionCount: questions.length, createdAt: now }).returning(),
  ))!;
  const instances: InstanceRow[] = [];
  for (const [position, question] of questions.entries()) {
    const values = {
      attemptId: attempt.id,
      predefinedQuestionId: question.id,
      position,
      multipleChoicesQuestion: question.multipleChoicesQuestion,
      correctAnswerIndex: question.correctAnswerIndex,
    };
    instances.push((yield* one(s, s.db.insert(s.t.assessmentQuestionInstances).values(values).returning()))!);
  }
  return { attempt, instances };
}

export function* attempt(s: Session, id: number): Step<AttemptRow | undefined> {
  const a = s.t.assessmentAttempts;
  return yield* one(s, s.db.select().from(a).where(eq(a.id, id)));
}

/**
 * The attempt, its row locked until the unit ends (PostgreSQL; a SQLite write unit is the only
 * writer): answers and submissions of one attempt take turns from here, each reading the count and
 * the submission the one before left.
 */
function* lockedAttempt(s: Session, id: number): Step<AttemptRow | undefined> {
  const a = s.t.assessmentAttempts;
  return yield* one(s, forUpdate(s, s.db.select().from(a).where(eq(a.id, id))));
}

/** An assessment question with its attempt. */
export function* instanceWithAttempt(s: Session, id: number): Step<{ instance: InstanceRow; attempt: AttemptRow } | undefined> {
  const i = s.t.assessmentQuestionInstances;
  const instance = yield* one(s, s.db.select().from(i).where(eq(i.id, id)));
  if (!instance) return undefined;
  return { instance, attempt: (yield* attempt(s, instance.attemptId))! };
}

/** The questions of attempts, in their order. */
export function* instancesOf(s: Session, attemptIds: number[]): Step<InstanceRow[]> {
  if (attemptIds.length === 0) return [];
  const i = s.t.assessmentQuestionInstances;
  return yield* all(
    s,
    s.db
      .select()
      .from(i)
      .where(inIds(s, i.attemptId, attemptIds))
      .orderBy(asc(i.position)),
  );
}

/** The user's attempts, newest first, with their questions. */
export function* attemptsOf(s: Session, userId: number): Step<{ attempts: AttemptRow[]; instances: InstanceRow[] }> {
  const a = s.t.assessmentAttempts;
  const attempts = yield* all(s, s.db.select().from(a).where(eq(a.userId, userId)).orderBy(desc(a.createdAt), desc(a.id)));
  return {
    attempts,
    instances: yield* instancesOf(
      s,
      attempts.map((row) => row.id),
    ),
  };
}

export type AnswerResult = { status: "submitted" } | { status: "answered-already" } | { status: "answered"; instance: InstanceRow };

/**
 * Answers a question of an attempt not submitted yet, once: a repeated request changes nothing and
 * counts nothing. A right answer counts in the attempt in the same unit.
 */
export function* answerQuestion(s: Session, instanceId: number, choiceIndex: number, correct: boolean, now: Date): Step<AnswerResult> {
  const { assessmentAttempts: a, assessmentQuestionInstances: i } = s.t;
  const instance = yield* one(s, s.db.select({ attemptId: i.attemptId }).from(i).where(eq(i.id, instanceId)));
  const locked = instance && (yield* lockedAttempt(s, instance.attemptId));
  if (!locked || locked.submittedAt) return { status: "submitted" };
  const row = yield* one(
    s,
    s.db
      .update(i)
      .set({ answerChoiceIndex: choiceIndex, answerCorrect: correct, answeredAt: now })
      .where(and(eq(i.id, instanceId), isNull(i.answerChoiceIndex)))
      .returning(),
  );
  if (!row) return { status: "answered-already" };
  if (correct)
    yield* run(
      s,
      s.db
        .update(a)
        .set({ answersCorrect: locked.answersCorrect + 1 })
        .where(eq(a.id, locked.id)),
    );
  return { status: "answered", instance: row };
}

/** A pass of a certifiable notebook: a new certificate starts at `passedAt`; an existing one keeps its start and gets the new expiry. */
export function* issueOrRenewCertificate(s: Session, userId: number, notebookId: number, passedAt: Date, expiryDate: Date): Step<void> {
  const c = s.t.certificates;
  yield* run(
    s,
    s.db
      .insert(c)
      .values({ userId, notebookId, startDate: passedAt, expiryDate })
      .onConflictDoUpdate({ target: [c.userId, c.notebookId], set: { expiryDate } }),
  );
}

/**
 * Submits the attempt once (undefined when it was submitted already): a pass (at least `passMark`
 * of right answers) of a notebook certifiable now issues or renews the certificate in the same
 * unit, expiring as `expiryFrom` says for the notebook's setting.
 */
export function* submit(
  s: Session,
  attemptId: number,
  now: Date,
  passMark: number,
  expiryFrom: (passedAt: Date, setting: string) => Date,
): Step<AttemptRow | undefined> {
  const { assessmentAttempts: a, notebooks } = s.t;
  const fresh = yield* lockedAttempt(s, attemptId);
  if (!fresh || fresh.submittedAt) return undefined;
  const isPass = fresh.totalQuestionCount > 0 && fresh.answersCorrect / fresh.totalQuestionCount >= passMark;
  const row = (yield* one(s, s.db.update(a).set({ submittedAt: now, isPass }).where(eq(a.id, fresh.id)).returning()))!;
  const notebook = yield* one(
    s,
    s.db
      .select({ certifiable: notebooks.certifiable, certificateExpiry: notebooks.certificateExpiry })
      .from(notebooks)
      .where(eq(notebooks.id, row.notebookId)),
  );
  if (isPass && notebook?.certifiable)
    yield* issueOrRenewCertificate(s, row.userId, row.notebookId, now, expiryFrom(now, notebook.certificateExpiry));
  return row;
}

export function* certificate(s: Session, userId: number, notebookId: number): Step<CertificateRow | undefined> {
  const c = s.t.certificates;
  return yield* one(
    s,
    s.db
      .select()
      .from(c)
      .where(and(eq(c.userId, userId), eq(c.notebookId, notebookId))),
  );
}

/** The user's last passed attempt of the notebook. */
export function* lastPass(s: Session, userId: number, notebookId: number): Step<AttemptRow | undefined> {
  const a = s.t.assessmentAttempts;
  return yield* one(
    s,
    s.db
      .select()
      .from(a)
      .where(and(eq(a.userId, userId), eq(a.notebookId, notebookId), eq(a.isPass, true)))
      .orderBy(desc(a.submittedAt))
      .limit(1),
  );
}

/** Issues the certificate of a pass and answers it. */
export function* claimCertificate(s: Session, userId: number, notebookId: number, passedAt: Date, expiryDate: Date): Step<CertificateRow> {
  yield* issueOrRenewCertificate(s, userId, notebookId, passedAt, expiryDate);
  return (yield* certificate(s, userId, notebookId))!;
}

export const assessmentsStore = defineStore({
  approvalOfNotebook: read(approvalOfNotebook),
  requestApproval: write(requestApproval),
  pendingApprovals: read(pendingApprovals),
  approve: write(approve),
  approvedQuestions: read(approvedQuestions),
  startAttempt: write(startAttempt),
  attempt: read(attempt),
  instanceWithAttempt: read(instanceWithAttempt),
  instancesOf: read(instancesOf),
  attemptsOf: read(attemptsOf),
  answerQuestion: write(answerQuestion),
  submit: write(submit),
  certificate: read(certificate),
  lastPass: read(lastPass),
  claimCertificate: write(claimCertificate),
});
export type AssessmentsStore = StoreOf<typeof assessmentsStore>;
