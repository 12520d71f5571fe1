import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { bool, id, timestamp } from "./common";

/** A sign-in identity. Its login name is the user's externalIdentifier; a profile (users) may follow. */
export const accounts = sqliteTable("accounts", {
  id: id(),
  externalIdentifier: text("external_identifier").notNull().unique(),
  /** argon2id hash; null for the non-production basic-auth test identities. */
  passwordHash: text("password_hash"),
  admin: bool("admin").notNull().default(false),
  /** Set by an admin: the account can no longer sign in (its sessions end). */
  disabledAt: timestamp("disabled_at"),
  createdAt: timestamp("created_at").notNull(),
  /** When one of its sessions was last used (to the minute); kept when the sessions end (logout, disabling). */
  lastSeenAt: timestamp("last_seen_at"),
});

/**
 * One-time password-reset links an admin makes for a user who forgot their password (self-hosters
 * have no e-mail): only the SHA-256 (hex) of the link's token is stored; used or expired, it is dead.
 */
export const passwordResets = sqliteTable("password_resets", {
  tokenHash: text("token_hash").primaryKey(),
  accountId: integer("account_id")
    .notNull()
    .references(() => accounts.id, { onDelete: "cascade" }),
  expiresAt: timestamp("expires_at").notNull(),
  usedAt: timestamp("used_at"),
  createdAt: timestamp("created_at").notNull(),
});

/** Lucia-style sessions: the id is the SHA-256 (hex) of the cookie token, never the token itself. */
export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at").notNull(),
    /** When the session started, when it was last used (to the minute) and the browser's user agent; null for sessions older than these columns. */
    createdAt: timestamp("created_at"),
    lastUsedAt: timestamp("last_used_at"),
    userAgent: text("user_agent"),
  },
  (table) => [index("sessions_account_id_idx").on(table.accountId)],
);

/**
 * The state of the sign-in, sign-up and password-change limits, one row per key
 * ("account:<name>", "address:<ip>", "sign-up:<ip>", "password:<account id>"), so it survives restarts.
 */
export const signInLimits = sqliteTable("sign_in_limits", {
  key: text("key").primaryKey(),
  /** Attempts counted since windowStartedAt (failures, or sign-ups). */
  attempts: integer("attempts").notNull(),
  windowStartedAt: timestamp("window_started_at").notNull(),
  lastAttemptAt: timestamp("last_attempt_at").notNull(),
  lockedUntil: timestamp("locked_until"),
});
