/**
 * Conversations and their messages. Who is a party to a conversation (its initiator, the note's
 * owner, or a member of the owning circle) is said once here as SQL, for the lists and the unread
 * counts; the policy says it for one conversation (authorizeConversationParty).
 */
import { and, count, desc, eq, inArray, isNull, ne, or, type Placeholder, type SQL, sql } from "drizzle-orm";
import type { conversationMessages, conversations } from "../../db/schema";
import { defineStore, read, type StoreOf, write } from "../define";
import { all, one, prepared, run, type Session, type Step } from "../session";

export type ConversationRow = typeof conversations.$inferSelect;
export type ConversationMessageRow = typeof conversationMessages.$inferSelect;

/** What a conversation is about: a note, an answered recall question or an assessment question. */
export type ConversationSubject = Pick<Partial<ConversationRow>, "subjectNoteId" | "subjectRecallPromptId" | "subjectAssessmentQuestionId">;

/** The conversations user `userId` is a party to: started, owned, or owned by one of their circles. */
function partyCondition(s: Session, userId: number | SQL | Placeholder) {
  const { conversations: c, circleMembers: cm } = s.t;
  return or(
    eq(c.initiatorUserId, userId),
    eq(c.ownerUserId, userId),
    inArray(c.ownerCircleId, s.db.select({ id: cm.circleId }).from(cm).where(eq(cm.userId, userId))),
  );
}

/** Starts a conversation and posts its first message, in one unit. */
export function* start(
  s: Session,
  conversation: ConversationSubject & { initiatorUserId: number; ownerUserId: number | null; ownerCircleId: number | null },
  message: string,
  now: Date,
): Step<ConversationRow> {
  const [row] = yield* all(
    s,
    s.db
      .insert(s.t.conversations)
      .values({ ...conversation, createdAt: now, updatedAt: now })
      .returning(),
  );
  yield* run(
    s,
    s.db
      .insert(s.t.conversationMessages)
      .values({ conversationId: row!.id, senderUserId: conversation.initiatorUserId, message, createdAt: now }),
  );
  return row!;
}

export function* byId(s: Session, conversationId: number): Step<ConversationRow | undefined> {
  return yield* one(s, s.db.select().from(s.t.conversations).where(eq(s.t.conversations.id, conversationId)));
}

/** The user's conversations (newest activity first), or only those about one note. */
export function* ofParty(s: Session, userId: number, aboutNoteId?: number): Step<ConversationRow[]> {
  const { conversations: c } = s.t;
  const where = aboutNoteId === undefined ? partyCondition(s, userId) : and(eq(c.subjectNoteId, aboutNoteId), partyCondition(s, userId));
  return yield* all(s, s.db.select().from(c).where(where).orderBy(desc(c.updatedAt), desc(c.id)));
}

/** Messages from others that the user, a party, has not read (the AI's and the user's own never are). */
function unreadWhere(s: Session, userId: number | SQL | Placeholder) {
  const { conversationMessages: m } = s.t;
  return and(eq(m.readByReceiver, false), ne(m.senderUserId, userId), partyCondition(s, userId));
}

/** How many messages from others the user has not read (the Messages badge: every page asks it, so prepared). */
export function* unreadCount(s: Session, userId: number): Step<number> {
  const query = prepared(s, "unread-messages-count", () => {
    const { conversationMessages: m, conversations: c } = s.t;
    return s.db
      .select({ n: count() })
      .from(m)
      .innerJoin(c, eq(c.id, m.conversationId))
      .where(unreadWhere(s, sql.placeholder("userId")));
  });
  return (yield* one(s, query, { userId }))?.n ?? 0;
}

/** The messages from others that the user has not read, oldest first. */
export function* unreadMessages(s: Session, userId: number): Step<ConversationMessageRow[]> {
  const { conversationMessages: m, conversations: c } = s.t;
  const rows = yield* all(
    s,
    s.db.select({ message: m }).from(m).innerJoin(c, eq(c.id, m.conversationId)).where(unreadWhere(s, userId)).orderBy(m.id),
  );
  return rows.map((row) => row.message);
}

/** Whether one conversation holds messages from others that the user has not read. */
export function* hasUnread(s: Session, conversationId: number, userId: number): Step<boolean> {
  const { conversationMessages: m } = s.t;
  const row = yield* one(
    s,
    s.db
      .select({ id: m.id })
      .from(m)
      .where(and(eq(m.conversationId, conversationId), eq(m.readByReceiver, false), ne(m.senderUserId, userId)))
      .limit(1),
  );
  return row !== undefined;
}

/** Marks the messages others (the AI included) sent in the conversation as read. */
export function* markRead(s: Session, conversationId: number, userId: number): Step<void> {
  const { conversationMessages: m } = s.t;
  yield* run(
    s,
    s.db
      .update(m)
      .set({ readByReceiver: true })
      .where(
        and(eq(m.conversationId, conversationId), eq(m.readByReceiver, false), or(isNull(m.senderUserId), ne(m.senderUserId, userId))),
      ),
  );
}

/** A conversation's messages, oldest first. */
export function* messagesOf(s: Session, conversationId: number): Step<ConversationMessageRow[]> {
  const { conversationMessages: m } = s.t;
  return yield* all(s, s.db.select().from(m).where(eq(m.conversationId, conversationId)).orderBy(m.id));
}

/**
 * Posts a message (no sender: the AI's reply); the conversation moves to the top of its parties'
 * lists. One unit.
 */
export function* post(
  s: Session,
  conversationId: number,
  senderUserId: number | null,
  message: string,
  now: Date,
): Step<ConversationMessageRow> {
  const { conversations: c, conversationMessages: m } = s.t;
  yield* run(s, s.db.update(c).set({ updatedAt: now }).where(eq(c.id, conversationId)));
  const [saved] = yield* all(s, s.db.insert(m).values({ conversationId, senderUserId, message, createdAt: now }).returning());
  return saved!;
}

/** What presenting a conversation needs beside its row: the owning circle, and the stored assessment question. */
export function* circleOf(s: Session, circleId: number): Step<{ id: number; name: string } | undefined> {
  const { circles } = s.t;
  return yield* one(s, s.db.select({ id: circles.id, name: circles.name }).from(circles).where(eq(circles.id, circleId)));
}

/** A recall prompt a conversation is about (the recall prompts store writes them). */
export function* recallPrompt(s: Session, promptId: number) {
  const { recallPrompts } = s.t;
  return yield* one(s, s.db.select().from(recallPrompts).where(eq(recallPrompts.id, promptId)));
}

/** The stored question of an assessment question instance (its JSON text). */
export function* assessmentQuestion(s: Session, instanceId: number): Step<{ id: number; question: string } | undefined> {
  const { assessmentQuestionInstances: q } = s.t;
  return yield* one(s, s.db.select({ id: q.id, question: q.multipleChoicesQuestion }).from(q).where(eq(q.id, instanceId)));
}

export const conversationsStore = defineStore({
  start: write(start),
  byId: read(byId),
  ofParty: read(ofParty),
  unreadCount: read(unreadCount),
  unreadMessages: read(unreadMessages),
  hasUnread: read(hasUnread),
  markRead: write(markRead),
  messagesOf: read(messagesOf),
  post: write(post),
  circleOf: read(circleOf),
  recallPrompt: read(recallPrompt),
  assessmentQuestion: read(assessmentQuestion),
});
export type ConversationsStore = StoreOf<typeof conversationsStore>;
