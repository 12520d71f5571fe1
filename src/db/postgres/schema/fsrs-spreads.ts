// The PostgreSQL twin of src/db/schema/fsrs-spreads.ts (see src/db/postgres/schema/common.ts).
import { bigint, doublePrecision, integer, pgTable, primaryKey } from "drizzle-orm/pg-core";

export const trackerStabilityBuckets = pgTable(
  "tracker_stability_buckets",
  {
    userId: integer("user_id").notNull(),
    bucket: integer("bucket").notNull(),
    trackers: integer("trackers").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.userId, table.bucket] })],
);

export const retrievabilityThresholds = pgTable(
  "retrievability_thresholds",
  {
    userId: integer("user_id").notNull(),
    bound: integer("bound").notNull(),
    ratio: doublePrecision("ratio").notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.bound] })],
);

export const retrievabilityCrossings = pgTable(
  "retrievability_crossings",
  {
    userId: integer("user_id").notNull(),
    spanMs: integer("span_ms").notNull(),
    slot: bigint("slot", { mode: "number" }).notNull(),
    bound: integer("bound").notNull(),
    trackers: integer("trackers").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.userId, table.spanMs, table.slot, table.bound] })],
);
