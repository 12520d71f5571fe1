// The PostgreSQL twin of src/db/schema/accounts.ts (see src/db/postgres/schema/common.ts).
import { index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { bool, id, timestamp } from "./common";

export const accounts = pgTable("accounts", {
  id: id(),
  externalIdentifier: text("external_identifier").notNull().unique(),
  passwordHash: text("password_hash"),
  admin: bool("admin").notNull().default(false),
  disabledAt: timestamp("disabled_at"),
  createdAt: timestamp("created_at").notNull(),
  lastSeenAt: timestamp("last_seen_at"),
});

export const passwordResets = pgTable("password_resets", {
  tokenHash: text("token_hash").primaryKey(),
  accountId: integer("account_id")
    .notNull()
    .references(() => accounts.id, { onDelete: "cascade" }),
  expiresAt: timestamp("expires_at").notNull(),
  usedAt: timestamp("used_at"),
  createdAt: timestamp("created_at").notNull(),
});

export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at").notNull(),
    createdAt: timestamp("created_at"),
    lastUsedAt: timestamp("last_used_at"),
    userAgent: text("user_agent"),
  },
  (table) => [index("sessions_account_id_idx").on(table.accountId)],
);

export const signInLimits = pgTable("sign_in_limits", {
  key: text("key").primaryKey(),
  attempts: integer("attempts").notNull(),
  windowStartedAt: timestamp("window_started_at").notNull(),
  lastAttemptAt: timestamp("last_attempt_at").notNull(),
  lockedUntil: timestamp("locked_until"),
});
