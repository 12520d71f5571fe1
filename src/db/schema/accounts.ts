import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { bool, id, timestamp } from "./common";

/** A sign-in identity. Its login name is the user's externalIdentifier; a profile (users) may follow. */
export const accounts = sqliteTable("accounts", {
  id: id(),
  externalIdentifier: text("external_identifier").notNull().unique(),
  /** argon2id hash; null for the non-production basic-auth test identities. */
  passwordHash: text("password_hash"),
  admin: bool("admin").notNull().default(false),
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
  },
  (table) => [index("sessions_account_id_idx").on(table.accountId)],
);
