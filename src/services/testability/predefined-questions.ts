import type { AppContext } from "../../context";
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
export async function injectPredefinedQuestions(
  ctx: AppContext,
  input: {
    notebookTitle: string;
    notebookCertifiable?: boolean | null;
    predefinedQuestionTestData: PredefinedQuestionTestRow[];
  },
) {
  const rows = input.predefinedQuestionTestData.map((row) => {
    const question = { stem: row.Question, choices: [row.Answer, row["One Wrong Choice"]] };
    const approved = row.Approved === true || row.Approved === "true";
    return {
      noteTitle: row["Note Title"],
      question: { multipleChoicesQuestion: JSON.stringify(question), correctAnswerIndex: 0, approved, contested: false },
      shown: { multipleChoicesQuestion: question, correctAnswerIndex: 0, approved },
    };
  });
  const injected = await ctx.stores.recallPrompts.injectQuestions(
    input.notebookTitle,
    rows,
    input.notebookCertifiable === true,
    ctx.clock.now(),
  );
  if ("missing" in injected) {
    throw new BadRequestError(
      injected.missing === "note" ? `No note "${injected.title}" in "${input.notebookTitle}"` : `No notebook "${input.notebookTitle}"`,
    );
  }
  return injected.questions.map((saved, i) => ({ id: saved.id, ...rows[i]!.shown }));
}
