// The PostgreSQL twin of src/db/schema/system.ts (see src/db/postgres/schema/common.ts).
import { sql } from "drizzle-orm";
import { index, integer, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { id, timestamp } from "./common";

export const failureReports = pgTable("failure_reports", {
  id: id(),
  errorName: text("error_name").notNull(),
  errorDetail: text("error_detail").notNull(),
  createDatetime: timestamp("create_datetime").notNull(),
});

export const globalSettings = pgTable("global_settings", {
  keyName: text("key_name").primaryKey(),
  value: text("value").notNull(),
  updatedAt: timestamp("updated_at").notNull(),
});

export const jobs = pgTable(
  "jobs",
  {
    id: id(),
    kind: text("kind").notNull(),
    payload: text("payload").notNull().default("{}"),
    status: text("status").notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    runAt: timestamp("run_at").notNull(),
    lockedUntil: timestamp("locked_until"),
    lastError: text("last_error"),
    dedupeKey: text("dedupe_key"),
    createdAt: timestamp("created_at").notNull(),
    updatedAt: timestamp("updated_at").notNull(),
  },
  (table) => [
    index("jobs_status_run_at_idx").on(table.status, table.runAt),
    uniqueIndex("jobs_queued_dedupe_key_idx").on(table.dedupeKey).where(sql`status = 'queued'`),
  ],
);

export const cacheVersions = pgTable(
  "cache_versions",
  {
    scope: text("scope", { enum: ["account", "user-access", "user-learning", "user-recall", "notebook"] }).notNull(),
    id: integer("id").notNull(),
    version: integer("version").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.scope, table.id] })],
);

export const leases = pgTable("leases", {
  name: text("name").primaryKey(),
  holder: text("holder").notNull(),
  expiresAt: timestamp("expires_at").notNull(),
});

export const requestResults = pgTable(
  "request_results",
  {
    scope: text("scope").notNull(),
    userId: integer("user_id").notNull(),
    requestId: text("request_id").notNull(),
    result: text("result"),
    createdAt: timestamp("created_at").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.scope, table.userId, table.requestId] }),
    index("request_results_created_at_idx").on(table.createdAt),
  ],
);
