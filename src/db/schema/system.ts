import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id, timestamp } from "./common";

/** Unexpected server errors, for admins ("Failure Reports"). */
export const failureReports = sqliteTable("failure_reports", {
  id: id(),
  errorName: text("error_name").notNull(),
  errorDetail: text("error_detail").notNull(),
  createDatetime: timestamp("create_datetime").notNull(),
});

/** Instance-wide settings as key/value pairs (AI model choices, ...). */
export const globalSettings = sqliteTable("global_settings", {
  keyName: text("key_name").primaryKey(),
  value: text("value").notNull(),
  updatedAt: timestamp("updated_at").notNull(),
});

/** The durable background job queue (see src/jobs and src/store/jobs). */
export const jobs = sqliteTable(
  "jobs",
  {
    id: id(),
    kind: text("kind").notNull(),
    payload: text("payload").notNull().default("{}"),
    /** queued | running | done | failed */
    status: text("status").notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    runAt: timestamp("run_at").notNull(),
    lockedUntil: timestamp("locked_until"),
    lastError: text("last_error"),
    /**
     * Kind and payload of a job that is not queued twice: at most one queued job has a key (a
     * unique index on the queued ones), so concurrent enqueues from several processes add it once.
     */
    dedupeKey: text("dedupe_key"),
    createdAt: timestamp("created_at").notNull(),
    updatedAt: timestamp("updated_at").notNull(),
  },
  (table) => [
    index("jobs_status_run_at_idx").on(table.status, table.runAt),
    uniqueIndex("jobs_queued_dedupe_key_idx").on(table.dedupeKey).where(sql`status = 'queued'`),
  ],
);

/**
 * Versions of what the servers keep in memory between requests (services/cache-versions.ts), per
 * scope and id: "account" (an account's sessions, account and user), "user-access" (the notebooks a
 * user may read), "user-learning" (a user's menu badges), "user-recall" (a user's reviews: the
 * Recall badge and the statistics), "notebook" (what its readers count).
 * Raised by triggers (migration 0032), never written by the application; a missing row is 0.
 */
export const cacheVersions = sqliteTable(
  "cache_versions",
  {
    scope: text("scope", { enum: ["account", "user-access", "user-learning", "user-recall", "notebook"] }).notNull(),
    id: integer("id").notNull(),
    version: integer("version").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.scope, table.id] })],
);

/**
 * Named leases: one process at a time does a piece of work shared by every process on the database
 * (the automatic backups), until its lease expires (src/store/leases).
 */
export const leases = sqliteTable("leases", {
  name: text("name").primaryKey(),
  /** Which process holds it (its instance id). */
  holder: text("holder").notNull(),
  expiresAt: timestamp("expires_at").notNull(),
});

/**
 * Answers to requests sent with a request id, kept a few minutes, so a repeated request (a
 * double-submitted "create notebook", sent to any process) gets the first one's answer instead of
 * doing the work again (src/store/request-results).
 */
export const requestResults = sqliteTable(
  "request_results",
  {
    /** What kind of request, e.g. "create-notebook". */
    scope: text("scope").notNull(),
    userId: integer("user_id").notNull(),
    requestId: text("request_id").notNull(),
    /** The answer as JSON; null while the first request is still working on it. */
    result: text("result"),
    createdAt: timestamp("created_at").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.scope, table.userId, table.requestId] }),
    index("request_results_created_at_idx").on(table.createdAt),
  ],
);
