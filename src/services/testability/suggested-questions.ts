import type { AppContext } from "../../context";
import { BadRequestError } from "../errors";
import { presentSuggestedQuestion } from "../predefined-questions/fine-tuning-suggestions";

export interface SuggestedQuestionExample {
  positiveFeedback: boolean;
  preservedNoteContent: string;
  realCorrectAnswers?: string | null;
  comment?: string | null;
  preservedQuestion: {
    multipleChoicesQuestion: { stem: string; choices: string[] };
    correctChoiceIndex: number;
    strictChoiceOrder?: boolean | null;
  };
}

/**
 * inject_suggested_questions: fine-tuning examples as given, suggested by the
 * admin test profile (a suggestion needs a user; the admin is the one who looks at them).
 */
export async function injectSuggestedQuestions(ctx: AppContext, examples: SuggestedQuestionExample[]) {
  const now = ctx.clock.now();
  const rows = await ctx.stores.fineTuning.insertForAdminProfile(
    examples.map((example) => ({
      preservedNoteContent: example.preservedNoteContent,
      preservedQuestion: JSON.stringify({
        multipleChoicesQuestion: example.preservedQuestion.multipleChoicesQuestion,
        correctChoiceIndex: example.preservedQuestion.correctChoiceIndex,
        strictChoiceOrder: example.preservedQuestion.strictChoiceOrder ?? false,
      }),
      positiveFeedback: example.positiveFeedback,
      comment: example.comment ?? "",
      realCorrectAnswers: example.realCorrectAnswers ?? "",
      createdAt: now,
    })),
  );
  if (!rows) throw new BadRequestError("No admin test profile: reset the test data first");
  return rows.map(presentSuggestedQuestion);
}
