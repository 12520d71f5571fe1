import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { id, timestamp } from "./common";
import { notebooks } from "./notes";
import { users } from "./users";

/**
 * A notebook's AI assistant settings: the additional instructions given to
 * the AI for this notebook's notes (question generation, evaluation, chat, title suggestion),
 * and Engram's own assistant record built by "recreate" (docs/decisions.md, decision 13: nothing on the provider's side).
 */
export const notebookAiAssistants = sqliteTable("notebook_ai_assistants", {
  id: id(),
  notebookId: integer("notebook_id")
    .notNull()
    .unique()
    .references(() => notebooks.id, { onDelete: "cascade" }),
  additionalInstructions: text("additional_instructions").notNull().default(""),
  /** JSON {name, model, instructions, additionalInstructions}: the last recreated record, null before. */
  assistantRecord: text("assistant_record"),
  /** Who recreated the record last (null before the first recreate or when that user is gone). */
  assistantCreatorId: integer("assistant_creator_id").references(() => users.id, { onDelete: "set null" }),
  assistantCreatedAt: timestamp("assistant_created_at"),
  createdAt: timestamp("created_at").notNull(),
  updatedAt: timestamp("updated_at").notNull(),
});
