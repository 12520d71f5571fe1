// The PostgreSQL twin of src/db/schema/tracker-due-buckets.ts (see src/db/postgres/schema/common.ts).
import { integer, pgTable, primaryKey } from "drizzle-orm/pg-core";

export const trackerDueBuckets = pgTable(
  "tracker_due_buckets",
  {
    userId: integer("user_id").notNull(),
    bucket: integer("bucket").notNull(),
    notebookId: integer("notebook_id").notNull(),
    trackers: integer("trackers").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.userId, table.bucket, table.notebookId] })],
);
