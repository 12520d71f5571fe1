// The PostgreSQL twin of src/db/schema/users.ts (see src/db/postgres/schema/common.ts).
import { doublePrecision, index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { id, timestamp } from "./common";

export const DEFAULT_SPACE_INTERVALS = "0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55";
export const DEFAULT_DAILY_ASSIMILATION_COUNT = 15;

export const users = pgTable("users", {
  id: id(),
  accountId: integer("account_id")
    .notNull()
    .unique()
    .references(() => accounts.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  dailyAssimilationCount: integer("daily_assimilation_count").notNull().default(DEFAULT_DAILY_ASSIMILATION_COUNT),
  spaceIntervals: text("space_intervals").notNull().default(DEFAULT_SPACE_INTERVALS),
  scheduler: text("scheduler").notNull().default("forgetting-curve"),
  desiredRetention: doublePrecision("desired_retention").notNull().default(0.9),
  maximumIntervalDays: integer("maximum_interval_days").notNull().default(36500),
  fsrsWeights: text("fsrs_weights"),
  createdAt: timestamp("created_at").notNull(),
});

export const userTokens = pgTable(
  "user_tokens",
  {
    id: id(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    label: text("label").notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    lastUsedAt: timestamp("last_used_at"),
    createdAt: timestamp("created_at").notNull(),
    expiresAt: timestamp("expires_at"),
  },
  (table) => [index("user_tokens_user_id_idx").on(table.userId)],
);
