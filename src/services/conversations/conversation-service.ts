import { and, desc, eq, inArray, isNull, ne, or, sql } from "drizzle-orm";
import type { AppContext } from "../../context";
import { circleMembers, circles, conversationMessages, conversations, recallPrompts, users } from "../../db/schema";
import { type AssessmentQuestionInstanceJson, ownQuestionInstance } from "../assessments/assessment-service";
import { NotFoundError, ValidationError } from "../errors";
import { type NoteJson, NotePresenter, topologyText } from "../notes/presenters";
import { findNote, getNote, getNotebook, type NotebookRow } from "../notes/rows";
import { authorizeConversationParty, authorizeRead, notebookAccess } from "../policies";
import { type AnsweredQuestionJson, presentAnsweredQuestion } from "../recall-prompts/presenters";
import { loadPromptOf, ownRecallPrompt } from "../recall-prompts/rows";
import { type UserReferenceJson, userReference, userReferences } from "../user-references";
import type { CurrentUser } from "../users";

/** Longest message a person sends. */
export const MAX_MESSAGE_LENGTH = 10_000;

/** ConversationSubject: what the conversation is about. */
export interface ConversationSubjectJson {
  note?: NoteJson;
  answeredQuestion?: AnsweredQuestionJson;
  assessmentQuestionInstance?: AssessmentQuestionInstanceJson;
}

/** Conversation: its subject, who it is with (a circle or the notebook's owner) and who started it. */
export interface ConversationJson {
  id: number;
  subject: ConversationSubjectJson;
  subjectOwnership: { circle?: { id: number; name: string }; ownerName?: string };
  conversationInitiator: UserReferenceJson;
  createdAt: string;
  updatedAt: string;
  /** Engram additions for the message center: whether the caller has unread messages, and a title for the subject. */
  unread?: boolean;
  subjectTitle?: string;
  /**
   * Engram additions, for the caller: whom they talk with (the circle, the note's owner or whoever
   * started it; absent when they started it about their own note, so only the AI answers), and
   * whether they may edit the note the conversation is about (only then may they accept the AI's
   * suggested changes to it).
   */
  otherPartyName?: string;
  mayEditNote?: boolean;
}

/** ConversationMessage: no sender means the AI. */
export interface ConversationMessageJson {
  id: number;
  message: string;
  sender?: UserReferenceJson;
  readByReceiver: boolean;
  createdAt: string;
}

export type ConversationRow = typeof conversations.$inferSelect;

/** Who a notebook's conversations reach: every member of its circle, or its creator. */
export function ownershipOf(notebook: NotebookRow): { ownerUserId: number | null; ownerCircleId: number | null } {
  return notebook.circleId === null
    ? { ownerUserId: notebook.creatorId, ownerCircleId: null }
    : { ownerUserId: null, ownerCircleId: notebook.circleId };
}

const userName = (ctx: AppContext, id: number) => ctx.db.select({ name: users.name }).from(users).where(eq(users.id, id)).get()?.name ?? "";

/** The subject title of a conversation whose note the caller may no longer read. */
export const UNREADABLE_SUBJECT_TITLE = "(a note you cannot read)";

/**
 * The subject as JSON, loaded for the caller (a party). Being a party does not open the note: the
 * caller sees its text only while the policy lets them read it (a note moved into a notebook they
 * may not read is a placeholder, and so is the note of an answered question).
 */
function subjectOf(ctx: AppContext, current: CurrentUser, row: ConversationRow): { subject: ConversationSubjectJson; title: string } {
  if (row.subjectNoteId !== null) {
    const note = findNote(ctx, row.subjectNoteId);
    if (!note) return { subject: {}, title: "(deleted note)" };
    const json = new NotePresenter(ctx, current).preload([note]).note(note);
    return { subject: { note: json }, title: json.unreadable ? UNREADABLE_SUBJECT_TITLE : topologyText(json.noteTopology) };
  }
  if (row.subjectRecallPromptId !== null) {
    const prompt = ctx.db.select().from(recallPrompts).where(eq(recallPrompts.id, row.subjectRecallPromptId)).get();
    if (!prompt) return { subject: {}, title: "(deleted question)" };
    // Both parties see the question (the conversation's policy let the caller in); its note only as the policy allows.
    const answered = presentAnsweredQuestion(ctx, current, loadPromptOf(ctx, prompt));
    return { subject: { answeredQuestion: answered }, title: answered.predefinedQuestion.multipleChoicesQuestion.stem };
  }
  if (row.subjectAssessmentQuestionId !== null) {
    const stored = ctx.sqlite
      .query<{ id: number; q: string }, [number]>(
        "SELECT id, multiple_choices_question AS q FROM assessment_question_instances WHERE id = ?",
      )
      .get(row.subjectAssessmentQuestionId);
    if (!stored) return { subject: {}, title: "(deleted question)" };
    const question = JSON.parse(stored.q);
    return { subject: { assessmentQuestionInstance: { id: stored.id, multipleChoicesQuestion: question } }, title: question.stem };
  }
  return { subject: {}, title: "" };
}

function hasUnread(ctx: AppContext, conversationId: number, userId: number): boolean {
  return (
    ctx.sqlite
      .query<{ n: number }, [number, number]>(
        `SELECT count(*) AS n FROM conversation_messages WHERE conversation_id = ?1 AND read_by_receiver = 0
       AND sender_user_id IS NOT NULL AND sender_user_id <> ?2`,
      )
      .get(conversationId, userId)!.n > 0
  );
}

/** Whom the caller talks with; undefined for a conversation about the caller's own note that the caller started. */
function otherPartyName(ctx: AppContext, current: CurrentUser, row: ConversationRow, circleName: string | undefined) {
  const started = row.initiatorUserId === current.user.id;
  if (circleName !== undefined) return started ? circleName : userName(ctx, row.initiatorUserId);
  if (row.ownerUserId === row.initiatorUserId) return undefined;
  return started ? (row.ownerUserId === null ? undefined : userName(ctx, row.ownerUserId)) : userName(ctx, row.initiatorUserId);
}

/** Whether the caller may edit the note the conversation is about (the policy's answer). */
function mayEditSubjectNote(ctx: AppContext, current: CurrentUser, subject: ConversationSubjectJson): boolean {
  const noteId = subject.note?.id ?? subject.answeredQuestion?.note.id;
  const note = noteId === undefined ? undefined : findNote(ctx, noteId);
  return note !== undefined && notebookAccess(ctx, current, getNotebook(ctx, note.notebookId)) === "edit";
}

export function presentConversation(ctx: AppContext, current: CurrentUser, row: ConversationRow): ConversationJson {
  const circle =
    row.ownerCircleId === null
      ? undefined
      : ctx.db.select({ id: circles.id, name: circles.name }).from(circles).where(eq(circles.id, row.ownerCircleId)).get();
  const { subject, title } = subjectOf(ctx, current, row);
  const other = otherPartyName(ctx, current, row, circle?.name);
  return {
    id: row.id,
    subject,
    subjectOwnership: circle ? { circle } : { ownerName: row.ownerUserId === null ? "" : userName(ctx, row.ownerUserId) },
    conversationInitiator: userReference(ctx, current, row.initiatorUserId),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    unread: hasUnread(ctx, row.id, current.user.id),
    subjectTitle: title,
    ...(other === undefined ? {} : { otherPartyName: other }),
    mayEditNote: mayEditSubjectNote(ctx, current, subject),
  };
}

function validMessage(text: unknown): string {
  const message = typeof text === "string" ? text.trim() : "";
  if (!message) throw new ValidationError({ message: "must not be blank" });
  if (message.length > MAX_MESSAGE_LENGTH) throw new ValidationError({ message: `size must be at most ${MAX_MESSAGE_LENGTH}` });
  return message;
}

/** Starts a conversation and posts its first message, in one transaction. */
function start(ctx: AppContext, current: CurrentUser, subject: Partial<ConversationRow>, notebook: NotebookRow, firstMessage: unknown) {
  const message = validMessage(firstMessage);
  const now = ctx.clock.now();
  return ctx.db.transaction((tx) => {
    const conversation = tx
      .insert(conversations)
      .values({ initiatorUserId: current.user.id, ...subject, ...ownershipOf(notebook), createdAt: now, updatedAt: now })
      .returning()
      .get();
    tx.insert(conversationMessages)
      .values({ conversationId: conversation.id, senderUserId: current.user.id, message, createdAt: now })
      .run();
    return conversation;
  });
}

/** "Start a conversation about this note": any reader of the note, with the note's owner (or circle). */
export function startConversationAboutNote(ctx: AppContext, current: CurrentUser, noteId: number, message: unknown): ConversationJson {
  const note = getNote(ctx, noteId);
  const notebook = getNotebook(ctx, note.notebookId);
  authorizeRead(ctx, current, notebook);
  return presentConversation(ctx, current, start(ctx, current, { subjectNoteId: note.id }, notebook, message));
}

/** An answered recall question of the user's: a conversation with the note's owner. */
export async function startConversationAboutRecallPrompt(
  ctx: AppContext,
  current: CurrentUser,
  promptId: number,
  message: unknown,
): Promise<ConversationJson> {
  const loaded = await ownRecallPrompt(ctx, current, promptId);
  return presentConversation(ctx, current, start(ctx, current, { subjectRecallPromptId: loaded.prompt.id }, loaded.notebook, message));
}

/** "Send feedback" on an assessment question the user answered. */
export function startConversationAboutAssessmentQuestion(
  ctx: AppContext,
  current: CurrentUser | undefined,
  instanceId: number,
  feedback: unknown,
) {
  const { instance, attempt } = ownQuestionInstance(ctx, current, instanceId);
  const notebook = getNotebook(ctx, attempt.notebookId);
  return presentConversation(ctx, current!, start(ctx, current!, { subjectAssessmentQuestionId: instance.id }, notebook, feedback));
}

/** The conversations the user is a party to: started, owned, or owned by one of the user's circles (the policy's rule, as SQL). */
function partyCondition(userId: number) {
  const myCircles = sql`(SELECT ${circleMembers.circleId} FROM ${circleMembers} WHERE ${circleMembers.userId} = ${userId})`;
  return or(
    eq(conversations.initiatorUserId, userId),
    eq(conversations.ownerUserId, userId),
    inArray(conversations.ownerCircleId, myCircles),
  );
}

/** GET /conversation/all: newest activity first. */
export function conversationsOf(ctx: AppContext, current: CurrentUser): ConversationJson[] {
  return ctx.db
    .select()
    .from(conversations)
    .where(partyCondition(current.user.id))
    .orderBy(desc(conversations.updatedAt), desc(conversations.id))
    .all()
    .map((row) => presentConversation(ctx, current, row));
}

/** GET /conversation/note/{note}: the note's conversations the user is a party to. */
export function conversationsAboutNote(ctx: AppContext, current: CurrentUser, noteId: number): ConversationJson[] {
  const note = getNote(ctx, noteId);
  authorizeRead(ctx, current, getNotebook(ctx, note.notebookId));
  return ctx.db
    .select()
    .from(conversations)
    .where(and(eq(conversations.subjectNoteId, note.id), partyCondition(current.user.id)))
    .orderBy(desc(conversations.updatedAt))
    .all()
    .map((row) => presentConversation(ctx, current, row));
}

// The party condition of partyCondition, written out: every page's menu badge asks this, so it is
// one cached statement, not an ORM query built per request. Messages the AI wrote
// (no sender) and the reader's own are never unread for the reader.
const UNREAD_MESSAGES = `FROM conversation_messages m JOIN conversations c ON c.id = m.conversation_id
   WHERE m.read_by_receiver = 0 AND m.sender_user_id <> ?1
     AND (c.initiator_user_id = ?1 OR c.owner_user_id = ?1 OR c.owner_circle_id IN (SELECT circle_id FROM circle_members WHERE user_id = ?1))`;

/** How many messages from others the user has not read (the Messages badge). */
export function unreadCount(ctx: AppContext, current: CurrentUser): number {
  return ctx.sqlite.query<{ n: number }, [number]>(`SELECT count(*) AS n ${UNREAD_MESSAGES}`).get(current.user.id)!.n;
}

/** GET /conversation/unread: the messages from others the user has not read, oldest first. */
export function unreadMessages(ctx: AppContext, current: CurrentUser): ConversationMessageJson[] {
  const ids = ctx.sqlite
    .query<{ id: number }, [number]>(`SELECT m.id AS id ${UNREAD_MESSAGES} ORDER BY m.id`)
    .all(current.user.id)
    .map((row) => row.id);
  if (ids.length === 0) return [];
  const rows = ctx.db
    .select()
    .from(conversationMessages)
    .where(inArray(conversationMessages.id, ids))
    .orderBy(conversationMessages.id)
    .all();
  return presentMessages(ctx, current, rows);
}

/** A conversation the user is a party to (404 unknown, 403 a stranger's). */
export function partyConversation(ctx: AppContext, current: CurrentUser | undefined, conversationId: number): ConversationRow {
  const row = ctx.db.select().from(conversations).where(eq(conversations.id, conversationId)).get();
  if (!row) throw new NotFoundError("Conversation");
  authorizeConversationParty(ctx, current, row);
  return row;
}

/** PATCH /conversation/{id}/read: marks it read; answers the messages still unread, as the contract does (for the badge). */
export function markReadAndListUnread(ctx: AppContext, current: CurrentUser, conversationId: number): ConversationMessageJson[] {
  markRead(ctx, current, conversationId);
  return unreadMessages(ctx, current);
}

/** Marks the messages others sent as read (for every member of a circle at once). */
export function markRead(ctx: AppContext, current: CurrentUser, conversationId: number) {
  const row = partyConversation(ctx, current, conversationId);
  ctx.db
    .update(conversationMessages)
    .set({ readByReceiver: true })
    .where(
      and(
        eq(conversationMessages.conversationId, row.id),
        eq(conversationMessages.readByReceiver, false),
        or(isNull(conversationMessages.senderUserId), ne(conversationMessages.senderUserId, current.user.id)),
      ),
    )
    .run();
  return presentConversation(ctx, current, row);
}

/** GET /conversation/{id}: fetching it marks it read. */
export function showConversation(ctx: AppContext, current: CurrentUser, conversationId: number): ConversationJson {
  return markRead(ctx, current, conversationId);
}

export function presentMessages(
  ctx: AppContext,
  reader: CurrentUser,
  rows: (typeof conversationMessages.$inferSelect)[],
): ConversationMessageJson[] {
  const senders = userReferences(
    ctx,
    reader,
    rows.flatMap((row) => (row.senderUserId === null ? [] : [row.senderUserId])),
  );
  return rows.map((row) => {
    const sender = row.senderUserId === null ? undefined : (senders.get(row.senderUserId) ?? userReference(ctx, reader, row.senderUserId));
    return {
      id: row.id,
      message: row.message,
      ...(sender ? { sender } : {}),
      readByReceiver: row.readByReceiver,
      createdAt: row.createdAt.toISOString(),
    };
  });
}

/** GET /conversation/{id}/messages: oldest first. */
export function messagesOf(ctx: AppContext, current: CurrentUser, conversationId: number): ConversationMessageJson[] {
  const row = partyConversation(ctx, current, conversationId);
  return presentMessages(
    ctx,
    current,
    ctx.db
      .select()
      .from(conversationMessages)
      .where(eq(conversationMessages.conversationId, row.id))
      .orderBy(conversationMessages.id)
      .all(),
  );
}

/** POST /conversation/{id}/send: a party posts; the conversation moves to the top of everyone's list. */
export function sendMessage(ctx: AppContext, current: CurrentUser, conversationId: number, text: unknown): ConversationMessageJson {
  const row = partyConversation(ctx, current, conversationId);
  const message = validMessage(text);
  const now = ctx.clock.now();
  const saved = ctx.db.transaction((tx) => {
    tx.update(conversations).set({ updatedAt: now }).where(eq(conversations.id, row.id)).run();
    return tx
      .insert(conversationMessages)
      .values({ conversationId: row.id, senderUserId: current.user.id, message, createdAt: now })
      .returning()
      .get();
  });
  return presentMessages(ctx, current, [saved])[0]!;
}
