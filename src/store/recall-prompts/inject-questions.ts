/**
 * The test endpoint's questions (recall-prompts store, non-production): one question per row on
 * the note of that title in the notebook whose head note has the given title, and the notebook's
 * assessment set up to ask as many, in one unit.
 */
import { and, asc, eq, isNull } from "drizzle-orm";
import { approveNotebook } from "../assessments/assessments-store";
import { setCertification } from "../notes/notebook-certification";
import { one, type Session, type Step } from "../session";
import { insertQuestion, type NewQuestion, type PredefinedQuestionRow } from "./prompts";

export type InjectedQuestions = { missing: "notebook" } | { missing: "note"; title: string } | { questions: PredefinedQuestionRow[] };

export function* injectQuestions(
  s: Session,
  notebookTitle: string,
  rows: { noteTitle: string; question: NewQuestion }[],
  certifiable: boolean,
  now: Date,
): Step<InjectedQuestions> {
  const n = s.t.notes;
  const head = yield* one(
    s,
    s.db
      .select({ notebookId: n.notebookId })
      .from(n)
      .where(and(eq(n.title, notebookTitle), isNull(n.parentId), isNull(n.deletedAt)))
      .orderBy(asc(n.id))
      .limit(1),
  );
  if (!head) return { missing: "notebook" };
  const noteIds: number[] = [];
  for (const row of rows) {
    const note = yield* one(
      s,
      s.db
        .select({ id: n.id })
        .from(n)
        .where(and(eq(n.notebookId, head.notebookId), eq(n.title, row.noteTitle), isNull(n.deletedAt)))
        .limit(1),
    );
    if (!note) return { missing: "note", title: row.noteTitle };
    noteIds.push(note.id);
  }
  const questions: PredefinedQuestionRow[] = [];
  for (const [i, row] of rows.entries()) questions.push(yield* insertQuestion(s, noteIds[i]!, row.question, now));
  yield* setCertification(s, head.notebookId, { numberOfQuestionsInAssessment: questions.length, ...(certifiable ? { certifiable } : {}) });
  if (certifiable) yield* approveNotebook(s, head.notebookId, now);
  return { questions };
}
