import { blob, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id, timestamp } from "./common";
import { notebooks } from "./notes";

/**
 * Files a notebook's notes embed or link to (images, audio, video, PDF), kept from an Obsidian
 * import so that its embeds show on the note page and resolve again in an export. Stored in the
 * database file, as note images are (a backup stays one file). `path` is where the file sits in
 * the vault, below its top folder ("Attachments/Diagram.png"): embeds find it by that path or
 * its name, as Obsidian does; `pathKey` is the path as compared (lower case).
 */
export const notebookAttachments = sqliteTable(
  "notebook_attachments",
  {
    id: id(),
    notebookId: integer("notebook_id")
      .notNull()
      .references(() => notebooks.id, { onDelete: "cascade" }),
    path: text("path").notNull(),
    pathKey: text("path_key").notNull(),
    contentType: text("content_type").notNull(),
    bytes: blob("bytes", { mode: "buffer" }).notNull(),
    createdAt: timestamp("created_at").notNull(),
  },
  // Also the index of a notebook's attachments (notebook_id leads it).
  (table) => [uniqueIndex("notebook_attachments_notebook_path_idx").on(table.notebookId, table.pathKey)],
);
