import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { id, timestamp } from "./common";
import { conversations } from "./conversations";

/**
 * A conversation's AI thread (docs/decisions.md, decision 12): Engram's own id for what the reference kept as an
 * OpenAI Assistants thread. One per conversation; the messages themselves stay in conversation_messages.
 */
export const aiThreads = sqliteTable("ai_threads", {
  id: id(),
  conversationId: integer("conversation_id")
    .notNull()
    .unique()
    .references(() => conversations.id, { onDelete: "cascade" }),
  createdAt: timestamp("created_at").notNull(),
});

/**
 * One AI reply run. While it waits for tool results (status requires_action) it keeps the chat
 * messages sent so far (JSON, the assistant's tool-call message last) and its pending tool calls,
 * so submit-tool-results can continue it with one more Chat Completions call.
 */
export const aiRuns = sqliteTable(
  "ai_runs",
  {
    id: id(),
    threadId: integer("thread_id")
      .notNull()
      .references(() => aiThreads.id, { onDelete: "cascade" }),
    /** in_progress | requires_action | completed | cancelled | failed */
    status: text("status").notNull(),
    /** JSON array of Chat Completions messages (set while requires_action). */
    messages: text("messages"),
    /** JSON array of {id, type:"function", function:{name, arguments}} the run waits for. */
    pendingToolCalls: text("pending_tool_calls"),
    /** Reply text written before the tool calls, kept to save with the continuation. */
    replySoFar: text("reply_so_far").notNull().default(""),
    createdAt: timestamp("created_at").notNull(),
    updatedAt: timestamp("updated_at").notNull(),
  },
  (table) => [index("ai_runs_thread_idx").on(table.threadId)],
);
