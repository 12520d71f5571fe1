import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { bool, id, timestamp } from "./common";
import { users } from "./users";

/**
 * A question a user suggested for fine-tuning, with the note and the
 * question as they were then: later edits or deletions of the note or question change nothing
 * here, so no foreign key to them. The admin's fine-tuning tab lists and edits these.
 */
export const suggestedQuestionsForFineTuning = sqliteTable(
  "suggested_questions_for_fine_tuning",
  {
    id: id(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The single-note description (§2.3) when the suggestion was made. */
    preservedNoteContent: text("preserved_note_content").notNull(),
    /** JSON MCQWithAnswer {multipleChoicesQuestion: {stem, choices}, correctChoiceIndex, strictChoiceOrder}. */
    preservedQuestion: text("preserved_question").notNull(),
    positiveFeedback: bool("positive_feedback").notNull(),
    comment: text("comment").notNull().default(""),
    /** Comma-separated 0-based indices of the truly correct choices ("" when unknown). */
    realCorrectAnswers: text("real_correct_answers").notNull().default(""),
    createdAt: timestamp("created_at").notNull(),
  },
  (table) => [index("suggested_questions_for_fine_tuning_created_idx").on(table.createdAt)],
);
