// The PostgreSQL twin of src/db/schema/assessments.ts (see src/db/postgres/schema/common.ts).
import { index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { bool, id, timestamp } from "./common";
import { predefinedQuestions } from "./memory";
import { notebooks } from "./notes";
import { users } from "./users";

export const notebookCertificateApprovals = pgTable("notebook_certificate_approvals", {
  id: id(),
  notebookId: integer("notebook_id")
    .notNull()
    .unique()
    .references(() => notebooks.id, { onDelete: "cascade" }),
  lastApprovalTime: timestamp("last_approval_time"),
  createdAt: timestamp("created_at").notNull(),
});

export const assessmentAttempts = pgTable(
  "assessment_attempts",
  {
    id: id(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    notebookId: integer("notebook_id")
      .notNull()
      .references(() => notebooks.id, { onDelete: "cascade" }),
    totalQuestionCount: integer("total_question_count").notNull(),
    answersCorrect: integer("answers_correct").notNull().default(0),
    submittedAt: timestamp("submitted_at"),
    isPass: bool("is_pass"),
    createdAt: timestamp("created_at").notNull(),
  },
  (table) => [
    index("assessment_attempts_user_idx").on(table.userId, table.createdAt),
    // What a move asks (and the trigger that keeps a held notebook) before a notebook goes.
    index("assessment_attempts_notebook_idx").on(table.notebookId),
  ],
);

export const assessmentQuestionInstances = pgTable(
  "assessment_question_instances",
  {
    id: id(),
    attemptId: integer("attempt_id")
      .notNull()
      .references(() => assessmentAttempts.id, { onDelete: "cascade" }),
    predefinedQuestionId: integer("predefined_question_id").references(() => predefinedQuestions.id, { onDelete: "set null" }),
    position: integer("position").notNull(),
    multipleChoicesQuestion: text("multiple_choices_question").notNull(),
    correctAnswerIndex: integer("correct_answer_index").notNull(),
    answerChoiceIndex: integer("answer_choice_index"),
    answerCorrect: bool("answer_correct"),
    answeredAt: timestamp("answered_at"),
  },
  (table) => [index("assessment_question_instances_attempt_idx").on(table.attemptId, table.position)],
);

export const certificates = pgTable(
  "certificates",
  {
    id: id(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    notebookId: integer("notebook_id")
      .notNull()
      .references(() => notebooks.id, { onDelete: "cascade" }),
    startDate: timestamp("start_date").notNull(),
    expiryDate: timestamp("expiry_date").notNull(),
  },
  (table) => [
    uniqueIndex("certificates_user_notebook_idx").on(table.userId, table.notebookId),
    index("certificates_notebook_idx").on(table.notebookId),
  ],
);
