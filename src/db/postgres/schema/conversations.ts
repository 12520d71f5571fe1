// The PostgreSQL twin of src/db/schema/conversations.ts (see src/db/postgres/schema/common.ts).
import { index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { circles } from "./circles";
import { bool, id, timestamp } from "./common";
import { notes } from "./notes";
import { users } from "./users";

export const conversations = pgTable(
  "conversations",
  {
    id: id(),
    initiatorUserId: integer("initiator_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    subjectNoteId: integer("subject_note_id").references(() => notes.id, { onDelete: "cascade" }),
    subjectRecallPromptId: integer("subject_recall_prompt_id"),
    subjectAssessmentQuestionId: integer("subject_assessment_question_id"),
    ownerUserId: integer("owner_user_id").references(() => users.id, { onDelete: "cascade" }),
    ownerCircleId: integer("owner_circle_id").references(() => circles.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at").notNull(),
    updatedAt: timestamp("updated_at").notNull(),
  },
  (table) => [
    index("conversations_initiator_idx").on(table.initiatorUserId),
    index("conversations_owner_user_idx").on(table.ownerUserId),
    index("conversations_owner_circle_idx").on(table.ownerCircleId),
  ],
);

export const conversationMessages = pgTable(
  "conversation_messages",
  {
    id: id(),
    conversationId: integer("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    senderUserId: integer("sender_user_id").references(() => users.id, { onDelete: "set null" }),
    message: text("message").notNull(),
    readByReceiver: bool("read_by_receiver").notNull().default(false),
    createdAt: timestamp("created_at").notNull(),
  },
  (table) => [index("conversation_messages_conversation_idx").on(table.conversationId, table.id)],
);
