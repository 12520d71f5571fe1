import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { circles } from "./circles";
import { bool, id, timestamp } from "./common";
import { notes } from "./notes";
import { users } from "./users";

/**
 * A conversation about a subject (a note, an answered recall prompt or an assessment question)
 * between its initiator and the subject's owner: a user, or every member of a circle.
 */
export const conversations = sqliteTable(
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

/** A message of a conversation; no sender means the AI. */
export const conversationMessages = sqliteTable(
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
