// The PostgreSQL twin of src/db/schema/sharing.ts (see src/db/postgres/schema/common.ts).
import { index, integer, pgTable, uniqueIndex } from "drizzle-orm/pg-core";
import { id, timestamp } from "./common";
import { notebooks } from "./notes";
import { users } from "./users";

export const bazaarNotebooks = pgTable("bazaar_notebooks", {
  id: id(),
  notebookId: integer("notebook_id")
    .notNull()
    .unique()
    .references(() => notebooks.id, { onDelete: "cascade" }),
  createdAt: timestamp("created_at").notNull(),
});

export const subscriptions = pgTable(
  "subscriptions",
  {
    id: id(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    notebookId: integer("notebook_id")
      .notNull()
      .references(() => notebooks.id, { onDelete: "cascade" }),
    dailyTargetOfNewNotes: integer("daily_target_of_new_notes").notNull().default(5),
    createdAt: timestamp("created_at").notNull(),
  },
  (table) => [
    uniqueIndex("subscriptions_user_notebook_idx").on(table.userId, table.notebookId),
    index("subscriptions_notebook_id_idx").on(table.notebookId),
  ],
);
