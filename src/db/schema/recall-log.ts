import { index, integer, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { id, timestamp } from "./common";
import { memoryTrackers } from "./memory";
import { users } from "./users";

/**
 * One row per review of a memory tracker (issue 17): written in the same transaction as the
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
    /** assimilation | multiple-choice | spelling | self-review | self-evaluation */
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
