// The PostgreSQL twin of src/db/schema/memory.ts (see src/db/postgres/schema/common.ts).
import { bigint, doublePrecision, index, integer, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { bool, id, timestamp } from "./common";
import { notes } from "./notes";
import { users } from "./users";

export const memoryTrackers = pgTable(
  "memory_trackers",
  {
    id: id(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    noteId: integer("note_id")
      .notNull()
      .references(() => notes.id, { onDelete: "cascade" }),
    spelling: bool("spelling").notNull().default(false),
    assimilatedAt: timestamp("assimilated_at").notNull(),
    lastRecalledAt: timestamp("last_recalled_at").notNull(),
    nextRecallAt: timestamp("next_recall_at").notNull(),
    repetitionCount: integer("repetition_count").notNull().default(0),
    forgettingCurveIndex: integer("forgetting_curve_index").notNull().default(100),
    removedFromTracking: bool("removed_from_tracking").notNull().default(false),
    stability: doublePrecision("stability"),
    difficulty: doublePrecision("difficulty"),
  },
  (table) => [
    uniqueIndex("memory_trackers_user_note_spelling_idx").on(table.userId, table.noteId, table.spelling),
    index("memory_trackers_due_idx").on(table.userId, table.removedFromTracking, table.nextRecallAt),
    index("memory_trackers_assimilated_idx").on(table.userId, table.assimilatedAt),
    index("memory_trackers_recalled_idx").on(table.userId, table.lastRecalledAt),
    index("memory_trackers_note_idx").on(table.noteId),
  ],
);

export const predefinedQuestions = pgTable(
  "predefined_questions",
  {
    id: id(),
    noteId: integer("note_id")
      .notNull()
      .references(() => notes.id, { onDelete: "cascade" }),
    multipleChoicesQuestion: text("multiple_choices_question").notNull(),
    correctAnswerIndex: integer("correct_answer_index").notNull(),
    approved: bool("approved").notNull().default(false),
    contested: bool("contested").notNull().default(false),
    createdAt: timestamp("created_at").notNull(),
  },
  (table) => [index("predefined_questions_note_idx").on(table.noteId)],
);

export const recallPrompts = pgTable(
  "recall_prompts",
  {
    id: id(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    memoryTrackerId: integer("memory_tracker_id")
      .notNull()
      .references(() => memoryTrackers.id, { onDelete: "cascade" }),
    predefinedQuestionId: integer("predefined_question_id")
      .notNull()
      .references(() => predefinedQuestions.id, { onDelete: "cascade" }),
    answerChoiceIndex: integer("answer_choice_index"),
    answerCorrect: bool("answer_correct"),
    answeredAt: timestamp("answered_at"),
    contestAdvice: text("contest_advice"),
    createdAt: timestamp("created_at").notNull(),
  },
  (table) => [index("recall_prompts_tracker_idx").on(table.memoryTrackerId)],
);

export const assimilationCandidates = pgTable(
  "assimilation_candidates",
  {
    userId: integer("user_id").notNull(),
    noteId: integer("note_id").notNull(),
    level: integer("level").notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.noteId] }),
    index("assimilation_candidates_order_idx").on(table.userId, table.level, table.createdAt, table.noteId),
    index("assimilation_candidates_note_idx").on(table.noteId),
  ],
);

export const userTrackerCounts = pgTable("user_tracker_counts", {
  userId: integer("user_id").primaryKey(),
  activeTrackers: integer("active_trackers").notNull().default(0),
  activeNotes: integer("active_notes").notNull().default(0),
  intervalMs: bigint("interval_ms", { mode: "number" }).notNull().default(0),
});
