import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id, timestamp } from "./common";
import { notebooks } from "./notes";
import { users } from "./users";

/**
 * Long work started by a user (an import, a backup) and run beside the request loop by a worker
 * process (src/operations): its progress and result, so that any process, and the user after a
 * reload, can tell how far it is. `running` until the worker publishes (`done`) or gives up
 * (`failed`); a running operation whose lease ran out lost its worker and is failed by whoever
 * notices. The user dismisses a finished one once its result was seen.
 */
export const operations = sqliteTable(
  "operations",
  {
    id: id(),
    /** obsidian-import | anki-import | backup */
    kind: text("kind").notNull(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The notebook an Obsidian import writes into (one import per notebook at a time). */
    notebookId: integer("notebook_id").references(() => notebooks.id, { onDelete: "cascade" }),
    /** What the user chose (a file name), for the progress line. */
    label: text("label").notNull().default(""),
    /** running | done | failed */
    status: text("status").notNull(),
    /** reading | writing | publishing (while running). */
    phase: text("phase").notNull().default("reading"),
    done: integer("done").notNull().default(0),
    total: integer("total"),
    /** The report (JSON) once done. */
    result: text("result"),
    /** Why it failed, as the user reads it. */
    error: text("error"),
    /** Wall-clock milliseconds until which the worker holds the operation; it renews as it goes. */
    leaseUntil: integer("lease_until").notNull(),
    createdAt: timestamp("created_at").notNull(),
    updatedAt: timestamp("updated_at").notNull(),
    finishedAt: timestamp("finished_at"),
    dismissedAt: timestamp("dismissed_at"),
  },
  (table) => [
    index("operations_user_idx").on(table.userId, table.dismissedAt),
    // A second import into the same notebook is refused while one runs (the index decides, atomically).
    uniqueIndex("operations_one_running_per_notebook_idx").on(table.notebookId).where(sql`status = 'running' AND notebook_id IS NOT NULL`),
  ],
);

/**
 * The rows an operation wrote that are not published yet (notes hidden as deleted, images,
 * trackers kept out of recall), so that publishing shows exactly them and a failure removes
 * exactly them. Emptied when the operation ends.
 */
export const operationRows = sqliteTable(
  "operation_rows",
  {
    operationId: integer("operation_id")
      .notNull()
      .references(() => operations.id, { onDelete: "cascade" }),
    /** note | image | tracker (a tracker to put into recall on publishing) | held-tracker (kept out: suspended) */
    kind: text("kind").notNull(),
    rowId: integer("row_id").notNull(),
  },
  (table) => [
    index("operation_rows_idx").on(table.operationId, table.kind, table.rowId),
    index("operation_rows_row_idx").on(table.kind, table.rowId),
  ],
);
