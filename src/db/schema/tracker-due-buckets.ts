import { integer, primaryKey, sqliteTable } from "drizzle-orm/sqlite-core";

/**
 * Trackers counted by the statistics' forecast, per user, notebook and 15-minute bucket of their
 * next recall: active trackers of notes not deleted. Kept by triggers on memory_trackers and notes
 * (migrations/*_tracker_due_bucket_triggers.sql), so the forecast reads a few thousand rows at
 * most instead of every tracker due in the next 30 days. No foreign keys: rows of a deleted user
 * or notebook are left behind (the reads join notebooks) rather than making deletions fail.
 */
export const trackerDueBuckets = sqliteTable(
  "tracker_due_buckets",
  {
    userId: integer("user_id").notNull(),
    bucket: integer("bucket").notNull(),
    notebookId: integer("notebook_id").notNull(),
    trackers: integer("trackers").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.userId, table.bucket, table.notebookId] })],
);
