import { eq } from "drizzle-orm";
import type { AppContext } from "../../context";
import { circles, conversationMessages, conversations, users } from "../../db/schema";
import { ValidationError } from "../errors";
import { ownQuestionInstance, type AssessmentQuestionInstanceJson } from "../assessments/assessment-service";
import { getNotebook, type NotebookRow } from "../notes/rows";
import type { CurrentUser } from "../users";

/** Longest message a person sends. */
export const MAX_MESSAGE_LENGTH = 10_000;

/** Conversation: its subject, who it is with (a circle or the notebook's owner) and who started it. */
export interface ConversationJson {
  id: number;
  subject: { assessmentQuestionInstance?: AssessmentQuestionInstanceJson };
  subjectOwnership: { circle?: { id: number; name: string }; ownerName?: string };
  conversationInitiator: { id: number; name: string };
  createdAt: string;
  updatedAt: string;
}

type ConversationRow = typeof conversations.$inferSelect;

/** Who a notebook's conversations reach: every member of its circle, or its creator. */
export function ownershipOf(notebook: NotebookRow): { ownerUserId: number | null; ownerCircleId: number | null } {
  return notebook.circleId === null ? { ownerUserId: notebook.creatorId, ownerCircleId: null } : { ownerUserId: null, ownerCircleId: notebook.circleId };
}

function present(ctx: AppContext, row: ConversationRow, subject: ConversationJson["subject"]): ConversationJson {
  const userName = (id: number) => ctx.db.select({ name: users.name }).from(users).where(eq(users.id, id)).get()?.name ?? "";
  const circle = row.ownerCircleId === null ? undefined
    : ctx.db.select({ id: circles.id, name: circles.name }).from(circles).where(eq(circles.id, row.ownerCircleId)).get();
  return {
    id: row.id,
    subject,
    subjectOwnership: circle ? { circle } : { ownerName: row.ownerUserId === null ? "" : userName(row.ownerUserId) },
    conversationInitiator: { id: row.initiatorUserId, name: userName(row.initiatorUserId) },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function validMessage(text: unknown): string {
  const message = typeof text === "string" ? text.trim() : "";
  if (!message) throw new ValidationError({ message: "must not be blank" });
  if (message.length > MAX_MESSAGE_LENGTH) throw new ValidationError({ message: `size must be at most ${MAX_MESSAGE_LENGTH}` });
  return message;
}

/**
 * "Send feedback" on an assessment question the user answered: a conversation with the notebook's
 * owner (or its circle), the feedback its first message, in one transaction.
 */
export function startConversationAboutAssessmentQuestion(ctx: AppContext, current: CurrentUser | undefined, instanceId: number, feedback: unknown) {
  const { instance, attempt } = ownQuestionInstance(ctx, current, instanceId);
  const message = validMessage(feedback);
  const notebook = getNotebook(ctx, attempt.notebookId);
  const now = ctx.clock.now();
  const row = ctx.db.transaction((tx) => {
    const conversation = tx.insert(conversations).values({
      initiatorUserId: current!.user.id,
      subjectAssessmentQuestionId: instance.id,
      ...ownershipOf(notebook),
      createdAt: now,
      updatedAt: now,
    }).returning().get();
    tx.insert(conversationMessages).values({ conversationId: conversation.id, senderUserId: current!.user.id, message, createdAt: now }).run();
    return conversation;
  });
  const question = JSON.parse(instance.multipleChoicesQuestion);
  return present(ctx, row, { assessmentQuestionInstance: { id: instance.id, multipleChoicesQuestion: question } });
}
