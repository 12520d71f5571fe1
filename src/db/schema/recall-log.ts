import { index, integer, primaryKey, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { id, timestamp } from "./common";
import { memoryTrackers } from "./memory";
import { users } from "./users";

/**
 * One row per review of a memory tracker: written in the same transaction as the
 * tracker's update and never edited, so a tracker's schedule can be rebuilt from its rows.
 * The log starts when this table was added: older trackers have no history.
 */
export const recallLog = sqliteTable(
  "recall_log",
  {
    id: id(),
    memoryTrackerId: integer("memory_tracker_id")
      .notNull()
      .references(() => memoryTrackers.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    reviewedAt: timestamp("reviewed_at").notNull(),
    /** assimilation | multiple-choice | spelling | self-review | self-evaluation | anki (imported from Anki) */
    kind: text("kind").notNull(),
    /** success | failure | +5 | -5 */
    outcome: text("outcome").notNull(),
    thinkingTimeMs: integer("thinking_time_ms"),
    /** The interval the tracker was scheduled for before this review (null for assimilation). */
    scheduledHours: real("scheduled_hours"),
    /** Hours since the tracker's last recall (null for assimilation). */
    elapsedHours: real("elapsed_hours"),
    /** JSON of the tracker's scheduling state before (null for assimilation) and after. */
    stateBefore: text("state_before"),
    stateAfter: text("state_after").notNull(),
  },
  (table) => [
    index("recall_log_tracker_idx").on(table.memoryTrackerId, table.reviewedAt),
    index("recall_log_user_time_idx").on(table.userId, table.reviewedAt),
  ],
);

/**
 * Recalls (successes and failures, not assimilations or ±5) per user and 15-minute bucket of
 * reviewed_at, kept by a trigger on recall_log (migrations/0011): the statistics read at most
 * 35,040 rows for a year instead of every log row. Every time zone's offset is a multiple of
 * 15 minutes, so a bucket never straddles a local midnight.
 */
export const recallLogBuckets = sqliteTable(
  "recall_log_buckets",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    bucket: integer("bucket").notNull(),
    recalls: integer("recalls").notNull().default(0),
    successes: integer("successes").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.userId, table.bucket] })],
);

/**
 * The same per hour (kept by the same trigger): a zone whose midnights all fall on whole hours
 * (most zones) reads a year in at most 8,760 rows instead of 35,040.
 */
export const recallLogHours = sqliteTable(
  "recall_log_hours",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    hour: integer("hour").notNull(),
    recalls: integer("recalls").notNull().default(0),
    successes: integer("successes").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.userId, table.hour] })],
);

/** Recalls per tracker, kept by the same trigger: the most failed notes and retention per notebook. */
export const recallLogTrackerCounts = sqliteTable(
  "recall_log_tracker_counts",
  {
    memoryTrackerId: integer("memory_tracker_id")
      .primaryKey()
      .references(() => memoryTrackers.id, { onDelete: "cascade" }),
    userId: integer("user_id").notNull(),
    successes: integer("successes").notNull().default(0),
    failures: integer("failures").notNull().default(0),
  },
  (table) => [index("recall_log_tracker_counts_failures_idx").on(table.userId, table.failures)],
);

/**
 * Recalls per user and notebook (the notebook of the tracker's note), kept by triggers on
 * recall_log_tracker_counts, memory_trackers and notes: retention by notebook reads a row per
 * notebook instead of joining every tracker to its note. No foreign keys, as tracker_due_buckets:
 * the reads join notebooks.
 */
export const recallLogNotebookCounts = sqliteTable(
  "recall_log_notebook_counts",
  {
    userId: integer("user_id").notNull(),
    notebookId: integer("notebook_id").notNull(),
    successes: integer("successes").notNull().default(0),
    failures: integer("failures").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.userId, table.notebookId] })],
);

/**
 * Answers applied with an idempotency key (an answer given offline and sent later, or an online
 * answer whose reply may have been lost): a retry, a second tab or a second sync of the same key
 * finds its row and is answered with the stored outcome instead of counting twice.
 */
export const appliedAnswers = sqliteTable(
  "applied_answers",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    idempotencyKey: text("idempotency_key").notNull(),
    memoryTrackerId: integer("memory_tracker_id").notNull(),
    /** When the learner gave the answer (the device's moment), and when the server took it. */
    answeredAt: timestamp("answered_at").notNull(),
    appliedAt: timestamp("applied_at").notNull(),
    /** The outcome sent back the first time (JSON), sent again for a repeated key. */
    outcome: text("outcome").notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.idempotencyKey] }), index("applied_answers_applied_idx").on(table.appliedAt)],
);
