// The PostgreSQL twin of src/db/schema/attachments.ts (see src/db/postgres/schema/common.ts).
import { integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { bytea, id, timestamp } from "./common";
import { notebooks } from "./notes";

export const notebookAttachments = pgTable(
  "notebook_attachments",
  {
    id: id(),
    notebookId: integer("notebook_id")
      .notNull()
      .references(() => notebooks.id, { onDelete: "cascade" }),
    path: text("path").notNull(),
    pathKey: text("path_key").notNull(),
    contentType: text("content_type").notNull(),
    bytes: bytea("bytes").notNull(),
    createdAt: timestamp("created_at").notNull(),
  },
  // Also the index of a notebook's attachments (notebook_id leads it).
  (table) => [uniqueIndex("notebook_attachments_notebook_path_idx").on(table.notebookId, table.pathKey)],
);
