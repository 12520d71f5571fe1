import { index, integer, sqliteTable, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id, timestamp } from "./common";
import { notebooks } from "./notes";
import { users } from "./users";

/** A notebook shared to the bazaar: anyone, signed in or not, may read it. */
export const bazaarNotebooks = sqliteTable("bazaar_notebooks", {
  id: id(),
  notebookId: integer("notebook_id")
    .notNull()
    .unique()
    .references(() => notebooks.id, { onDelete: "cascade" }),
  createdAt: timestamp("created_at").notNull(),
});

/** A learner's subscription to someone else's notebook: read it, assimilate up to a daily target, recall it. */
export const subscriptions = sqliteTable(
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
