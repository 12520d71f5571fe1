// The PostgreSQL twin of src/db/schema/fine-tuning.ts (see src/db/postgres/schema/common.ts).
import { index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { bool, id, timestamp } from "./common";
import { users } from "./users";

export const suggestedQuestionsForFineTuning = pgTable(
  "suggested_questions_for_fine_tuning",
  {
    id: id(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    preservedNoteContent: text("preserved_note_content").notNull(),
    preservedQuestion: text("preserved_question").notNull(),
    positiveFeedback: bool("positive_feedback").notNull(),
    comment: text("comment").notNull().default(""),
    realCorrectAnswers: text("real_correct_answers").notNull().default(""),
    createdAt: timestamp("created_at").notNull(),
  },
  (table) => [index("suggested_questions_for_fine_tuning_created_idx").on(table.createdAt)],
);
