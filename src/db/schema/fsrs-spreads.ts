import { integer, primaryKey, real, sqliteTable } from "drizzle-orm/sqlite-core";

/*
 * The statistics' FSRS spreads, kept by triggers on memory_trackers
 * (migrations/*_statistics_aggregates.sql) so the page reads a few rows instead of every tracker.
 * Both count a user's active trackers with an FSRS stability. No foreign keys, as
 * tracker_due_buckets: nothing else depends on these rows.
 */

/** Trackers per stability bucket: 0 under 1 day, 1 under 7, 2 under 30, 3 under 90, 4 under 365, 5 the rest. */
export const trackerStabilityBuckets = sqliteTable(
  "tracker_stability_buckets",
  {
    userId: integer("user_id").notNull(),
    bucket: integer("bucket").notNull(),
    trackers: integer("trackers").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.userId, table.bucket] })],
);

/**
 * The elapsed time, as a multiple of the stability, at which a user's recall probability falls to
 * each bound of the retrievability spread (bound 0: 70 %, 1: 80 %, 2: 90 %, 3: 95 %), from the
 * user's FSRS weights. A user without rows has the default weights' ratios: the view
 * retrievability_ratios (migrations/*_statistics_aggregates.sql) answers either, per user.
 */
export const retrievabilityThresholds = sqliteTable(
  "retrievability_thresholds",
  {
    userId: integer("user_id").notNull(),
    bound: integer("bound").notNull(),
    ratio: real("ratio").notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.bound] })],
);

/**
 * When trackers cross each bound: a tracker of stability S (days) last recalled at L falls below
 * bound k at L + ratio_k · S days. Counted per slot of that instant twice, per day (span_ms
 * 86,400,000) and per 15 minutes (900,000): the trackers below a bound at the start of a quarter
 * hour are those whose crossing came before it, the days before its day plus its day's quarters
 * so far, a few hundred rows whatever the number of trackers. A stability of 0 never crosses.
 */
export const retrievabilityCrossings = sqliteTable(
  "retrievability_crossings",
  {
    userId: integer("user_id").notNull(),
    spanMs: integer("span_ms").notNull(),
    slot: integer("slot").notNull(),
    bound: integer("bound").notNull(),
    trackers: integer("trackers").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.userId, table.spanMs, table.slot, table.bound] })],
);
