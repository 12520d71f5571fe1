// The PostgreSQL twin of src/db/schema/ai-runs.ts (see src/db/postgres/schema/common.ts).
import { index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { id, timestamp } from "./common";
import { conversations } from "./conversations";

export const aiThreads = pgTable("ai_threads", {
  id: id(),
  conversationId: integer("conversation_id")
    .notNull()
    .unique()
    .references(() => conversations.id, { onDelete: "cascade" }),
  createdAt: timestamp("created_at").notNull(),
});

export const aiRuns = pgTable(
  "ai_runs",
  {
    id: id(),
    threadId: integer("thread_id")
      .notNull()
      .references(() => aiThreads.id, { onDelete: "cascade" }),
    status: text("status").notNull(),
    messages: text("messages"),
    pendingToolCalls: text("pending_tool_calls"),
    replySoFar: text("reply_so_far").notNull().default(""),
    createdAt: timestamp("created_at").notNull(),
    updatedAt: timestamp("updated_at").notNull(),
  },
  (table) => [index("ai_runs_thread_idx").on(table.threadId)],
);
