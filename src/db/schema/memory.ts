import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { bool, id, timestamp } from "./common";
import { notes } from "./notes";
import { users } from "./users";

/**
 * A user's memory of a note on the forgetting curve (one normal and at most one spelling tracker
 * per user and note). See src/services/scheduling for the rules.
 */
export const memoryTrackers = sqliteTable(
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
    /** FSRS memory state (days, 1..10) while the user schedules with FSRS; null otherwise. */
    stability: real("stability"),
    difficulty: real("difficulty"),
  },
  (table) => [
    uniqueIndex("memory_trackers_user_note_spelling_idx").on(table.userId, table.noteId, table.spelling),
    index("memory_trackers_due_idx").on(table.userId, table.removedFromTracking, table.nextRecallAt),
    index("memory_trackers_assimilated_idx").on(table.userId, table.assimilatedAt),
    index("memory_trackers_recalled_idx").on(table.userId, table.lastRecalledAt),
    index("memory_trackers_note_idx").on(table.noteId),
  ],
);

/** A multiple-choice question about a note (AI-generated or added by hand). */
export const predefinedQuestions = sqliteTable(
  "predefined_questions",
  {
    id: id(),
    noteId: integer("note_id")
      .notNull()
      .references(() => notes.id, { onDelete: "cascade" }),
    /** JSON {stem, choices[]} */
    multipleChoicesQuestion: text("multiple_choices_question").notNull(),
    correctAnswerIndex: integer("correct_answer_index").notNull(),
    approved: bool("approved").notNull().default(false),
    contested: bool("contested").notNull().default(false),
    createdAt: timestamp("created_at").notNull(),
  },
  (table) => [index("predefined_questions_note_idx").on(table.noteId)],
);

/** A question put to one user for one memory tracker, and the user's answer once given. */
export const recallPrompts = sqliteTable(
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
    /** The contest's advice once contested (the question is then never reused). */
    contestAdvice: text("contest_advice"),
    createdAt: timestamp("created_at").notNull(),
  },
  (table) => [index("recall_prompts_tracker_idx").on(table.memoryTrackerId)],
);

/**
 * The notes each user may still assimilate, kept by triggers (migrations/0006) so that today's
 * list is an index range, not a scan of every note against every tracker.
 */
export const assimilationCandidates = sqliteTable(
  "assimilation_candidates",
  {
    userId: integer("user_id").notNull(),
    noteId: integer("note_id").notNull(),
    level: integer("level").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.noteId] }),
    index("assimilation_candidates_order_idx").on(table.userId, table.level, table.createdAt, table.noteId),
    index("assimilation_candidates_note_idx").on(table.noteId),
  ],
);

/**
 * Per-user counters kept by triggers: active (not removed) memory trackers, those of them that are
 * not spelling trackers (the notes assimilated), and the sum of their intervals (next recall minus
 * last recall, in ms) for the statistics' mean interval.
 */
export const userTrackerCounts = sqliteTable("user_tracker_counts", {
  userId: integer("user_id").primaryKey(),
  activeTrackers: integer("active_trackers").notNull().default(0),
  activeNotes: integer("active_notes").notNull().default(0),
  intervalMs: integer("interval_ms").notNull().default(0),
});
