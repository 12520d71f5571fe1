// The PostgreSQL twin of src/db/schema/ai-assistants.ts (see src/db/postgres/schema/common.ts).
import { integer, pgTable, text } from "drizzle-orm/pg-core";
import { id, timestamp } from "./common";
import { notebooks } from "./notes";
import { users } from "./users";

export const notebookAiAssistants = pgTable("notebook_ai_assistants", {
  id: id(),
  notebookId: integer("notebook_id")
    .notNull()
    .unique()
    .references(() => notebooks.id, { onDelete: "cascade" }),
  additionalInstructions: text("additional_instructions").notNull().default(""),
  assistantRecord: text("assistant_record"),
  assistantCreatorId: integer("assistant_creator_id").references(() => users.id, { onDelete: "set null" }),
  assistantCreatedAt: timestamp("assistant_created_at"),
  createdAt: timestamp("created_at").notNull(),
  updatedAt: timestamp("updated_at").notNull(),
});
