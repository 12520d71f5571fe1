// The PostgreSQL twin of src/db/schema/recall-log.ts (see src/db/postgres/schema/common.ts).
import { doublePrecision, index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { id, timestamp } from "./common";
import { memoryTrackers } from "./memory";
import { users } from "./users";

export const recallLog = pgTable(
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
    kind: text("kind").notNull(),
    outcome: text("outcome").notNull(),
    thinkingTimeMs: integer("thinking_time_ms"),
    scheduledHours: doublePrecision("scheduled_hours"),
    elapsedHours: doublePrecision("elapsed_hours"),
    stateBefore: text("state_before"),
    stateAfter: text("state_after").notNull(),
  },
  (table) => [
    index("recall_log_tracker_idx").on(table.memoryTrackerId, table.reviewedAt),
    index("recall_log_user_time_idx").on(table.userId, table.reviewedAt),
  ],
);

export const recallLogBuckets = pgTable(
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

export const recallLogHours = pgTable(
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

export const recallLogTrackerCounts = pgTable(
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

export const recallLogNotebookCounts = pgTable(
  "recall_log_notebook_counts",
  {
    userId: integer("user_id").notNull(),
    notebookId: integer("notebook_id").notNull(),
    successes: integer("successes").notNull().default(0),
    failures: integer("failures").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.userId, table.notebookId] })],
);

export const appliedAnswers = pgTable(
  "applied_answers",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    idempotencyKey: text("idempotency_key").notNull(),
    memoryTrackerId: integer("memory_tracker_id").notNull(),
    answeredAt: timestamp("answered_at").notNull(),
    appliedAt: timestamp("applied_at").notNull(),
    outcome: text("outcome").notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.idempotencyKey] }), index("applied_answers_applied_idx").on(table.appliedAt)],
);
