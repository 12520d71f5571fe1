import { and, eq, isNull } from "drizzle-orm";
import type { AppContext } from "../../context";
import { notebookCertificateApprovals, notebooks, notes, predefinedQuestions } from "../../db/schema";
import { BadRequestError } from "../errors";

export interface PredefinedQuestionTestRow {
  "Note Title": string;
  Question: string;
  Answer: string;
  "One Wrong Choice": string;
  Approved?: boolean | string | null;
}

/**
 * inject-predefined-questions: one question per row on the note of that title in
 * the notebook of that title, choices [Answer, One Wrong Choice] with index 0; the notebook's
 * assessment asks as many questions as there are rows; a certifiable notebook is also approved.
 */
export function injectPredefinedQuestions(
  ctx: AppContext,
  input: {
    notebookTitle: string;
    notebookCertifiable?: boolean | null;
    predefinedQuestionTestData: PredefinedQuestionTestRow[];
  },
) {
  const head = ctx.db
    .select({ notebookId: notes.notebookId })
    .from(notes)
    .where(and(eq(notes.title, input.notebookTitle), isNull(notes.parentId), isNull(notes.deletedAt)))
    .orderBy(notes.id)
    .get();
  if (!head) throw new BadRequestError(`No notebook "${input.notebookTitle}"`);
  const now = ctx.clock.now();
  return ctx.db.transaction((tx) => {
    const created = input.predefinedQuestionTestData.map((row) => {
      const note = tx
        .select({ id: notes.id })
        .from(notes)
        .where(and(eq(notes.notebookId, head.notebookId), eq(notes.title, row["Note Title"]), isNull(notes.deletedAt)))
        .get();
      if (!note) throw new BadRequestError(`No note "${row["Note Title"]}" in "${input.notebookTitle}"`);
      const question = { stem: row.Question, choices: [row.Answer, row["One Wrong Choice"]] };
      const approved = row.Approved === true || row.Approved === "true";
      const saved = tx
        .insert(predefinedQuestions)
        .values({
          noteId: note.id,
          multipleChoicesQuestion: JSON.stringify(question),
          correctAnswerIndex: 0,
          approved,
          createdAt: now,
        })
        .returning()
        .get();
      return { id: saved.id, multipleChoicesQuestion: question, correctAnswerIndex: 0, approved };
    });
    const certifiable = input.notebookCertifiable === true;
    tx.update(notebooks)
      .set({ numberOfQuestionsInAssessment: created.length, ...(certifiable ? { certifiable: true } : {}) })
      .where(eq(notebooks.id, head.notebookId))
      .run();
    if (certifiable) {
      tx.insert(notebookCertificateApprovals)
        .values({ notebookId: head.notebookId, lastApprovalTime: now, createdAt: now })
        .onConflictDoUpdate({ target: notebookCertificateApprovals.notebookId, set: { lastApprovalTime: now } })
        .run();
    }
    return created;
  });
}
