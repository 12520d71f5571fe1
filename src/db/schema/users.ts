import { index, integer, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { accounts } from "./accounts";
import { id, timestamp } from "./common";

export const DEFAULT_SPACE_INTERVALS = "0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55";
export const DEFAULT_DAILY_ASSIMILATION_COUNT = 15;

/** A learner's profile, created after sign-in ("Welcome, new user. Please create your profile"). */
export const users = sqliteTable("users", {
  id: id(),
  accountId: integer("account_id")
    .notNull()
    .unique()
    .references(() => accounts.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  dailyAssimilationCount: integer("daily_assimilation_count").notNull().default(DEFAULT_DAILY_ASSIMILATION_COUNT),
  spaceIntervals: text("space_intervals").notNull().default(DEFAULT_SPACE_INTERVALS),
  /** "forgetting-curve" (classic, the default) or "fsrs". */
  scheduler: text("scheduler").notNull().default("forgetting-curve"),
  desiredRetention: real("desired_retention").notNull().default(0.9),
  maximumIntervalDays: integer("maximum_interval_days").notNull().default(36500),
  /** The user's fitted FSRS weights (JSON array); null means the defaults. */
  fsrsWeights: text("fsrs_weights"),
  createdAt: timestamp("created_at").notNull(),
});

/** MCP tokens: random bearer tokens, stored as SHA-256 (hex), shown to the user once. */
export const userTokens = sqliteTable(
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
    /** After this the token is refused; null: it never expires (chosen when it was generated). */
    expiresAt: timestamp("expires_at"),
  },
  (table) => [index("user_tokens_user_id_idx").on(table.userId)],
);
