// The PostgreSQL twin of src/db/schema/operations.ts (see src/db/postgres/schema/common.ts).
import { sql } from "drizzle-orm";
import { bigint, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { id, timestamp } from "./common";
import { notebooks } from "./notes";
import { users } from "./users";

export const operations = pgTable(
  "operations",
  {
    id: id(),
    kind: text("kind").notNull(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    notebookId: integer("notebook_id").references(() => notebooks.id, { onDelete: "cascade" }),
    label: text("label").notNull().default(""),
    status: text("status").notNull(),
    phase: text("phase").notNull().default("reading"),
    done: integer("done").notNull().default(0),
    total: integer("total"),
    result: text("result"),
    error: text("error"),
    leaseUntil: bigint("lease_until", { mode: "number" }).notNull(),
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

export const operationRows = pgTable(
  "operation_rows",
  {
    operationId: integer("operation_id")
      .notNull()
      .references(() => operations.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    rowId: integer("row_id").notNull(),
  },
  (table) => [
    index("operation_rows_idx").on(table.operationId, table.kind, table.rowId),
    index("operation_rows_row_idx").on(table.kind, table.rowId),
  ],
);
