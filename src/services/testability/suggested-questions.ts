import { eq } from "drizzle-orm";
import type { AppContext } from "../../context";
import { accounts, suggestedQuestionsForFineTuning, users } from "../../db/schema";
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
export function injectSuggestedQuestions(ctx: AppContext, examples: SuggestedQuestionExample[]) {
  const admin = ctx.db
    .select({ id: users.id })
    .from(users)
    .innerJoin(accounts, eq(users.accountId, accounts.id))
    .where(eq(accounts.externalIdentifier, "admin"))
    .get();
  if (!admin) throw new BadRequestError("No admin test profile: reset the test data first");
  const now = ctx.clock.now();
  return ctx.db.transaction((tx) =>
    examples.map((example) =>
      presentSuggestedQuestion(
        tx
          .insert(suggestedQuestionsForFineTuning)
          .values({
            userId: admin.id,
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
          })
          .returning()
          .get(),
      ),
    ),
  );
}
