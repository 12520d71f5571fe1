import type { AppContext } from "../../context";
import type { ConversationMessageRow, ConversationRow, ConversationSubject } from "../../store/conversations/conversations-store";
import { type AssessmentQuestionInstanceJson, ownQuestionInstance } from "../assessments/assessment-service";
import { NotFoundError, ValidationError } from "../errors";
import { type NoteJson, NotePresenter, topologyText } from "../notes/presenters";
import { type NotebookRow, requireNotebook, requireNoteWithNotebook } from "../notes/rows";
import { authorizeConversationParty, authorizeRead, notebookAccess } from "../policies";
import { type AnsweredQuestionJson, presentAnsweredQuestion } from "../recall-prompts/presenters";
import { loadPromptOf, ownRecallPrompt } from "../recall-prompts/rows";
import { loadUserReference, loadUserReferences, missingUser, type UserReferenceJson } from "../user-references";
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

export type { ConversationRow } from "../../store/conversations/conversations-store";

/** Who a notebook's conversations reach: every member of its circle, or its creator. */
export function ownershipOf(notebook: NotebookRow): { ownerUserId: number | null; ownerCircleId: number | null } {
  return notebook.circleId === null
    ? { ownerUserId: notebook.creatorId, ownerCircleId: null }
    : { ownerUserId: null, ownerCircleId: notebook.circleId };
}

const userName = async (ctx: AppContext, id: number) => (await ctx.stores.users.byId(id))?.name ?? "";

/** The subject title of a conversation whose note the caller may no longer read. */
export const UNREADABLE_SUBJECT_TITLE = "(a note you cannot read)";

/**
 * The subject as JSON, loaded for the caller (a party). Being a party does not open the note: the
 * caller sees its text only while the policy lets them read it (a note moved into a notebook they
 * may not read is a placeholder, and so is the note of an answered question).
 */
async function subjectOf(
  ctx: AppContext,
  current: CurrentUser,
  row: ConversationRow,
): Promise<{ subject: ConversationSubjectJson; title: string }> {
  if (row.subjectNoteId !== null) {
    const note = await ctx.stores.notes.noteById(row.subjectNoteId);
    if (!note) return { subject: {}, title: "(deleted note)" };
    const json = (await new NotePresenter(ctx, current).load([note])).note(note);
    return { subject: { note: json }, title: json.unreadable ? UNREADABLE_SUBJECT_TITLE : topologyText(json.noteTopology) };
  }
  if (row.subjectRecallPromptId !== null) {
    const prompt = await ctx.stores.conversations.recallPrompt(row.subjectRecallPromptId);
    if (!prompt) return { subject: {}, title: "(deleted question)" };
    // Both parties see the question (the conversation's policy let the caller in); its note only as the policy allows.
    const answered = await presentAnsweredQuestion(ctx, current, await loadPromptOf(ctx, prompt));
    return { subject: { answeredQuestion: answered }, title: answered.predefinedQuestion.multipleChoicesQuestion.stem };
  }
  if (row.subjectAssessmentQuestionId !== null) {
    const stored = await ctx.stores.conversations.assessmentQuestion(row.subjectAssessmentQuestionId);
    if (!stored) return { subject: {}, title: "(deleted question)" };
    const question = JSON.parse(stored.question);
    return { subject: { assessmentQuestionInstance: { id: stored.id, multipleChoicesQuestion: question } }, title: question.stem };
  }
  return { subject: {}, title: "" };
}

/** Whom the caller talks with; undefined for a conversation about the caller's own note that the caller started. */
async function otherPartyName(ctx: AppContext, current: CurrentUser, row: ConversationRow, circleName: string | undefined) {
  const started = row.initiatorUserId === current.user.id;
  if (circleName !== undefined) return started ? circleName : await userName(ctx, row.initiatorUserId);
  if (row.ownerUserId === row.initiatorUserId) return undefined;
  if (!started) return await userName(ctx, row.initiatorUserId);
  return row.ownerUserId === null ? undefined : await userName(ctx, row.ownerUserId);
}

/** Whether the caller may edit the note the conversation is about (the policy's answer). */
async function mayEditSubjectNote(ctx: AppContext, current: CurrentUser, subject: ConversationSubjectJson): Promise<boolean> {
  const noteId = subject.note?.id ?? subject.answeredQuestion?.note.id;
  const found = noteId === undefined ? undefined : await ctx.stores.notes.noteWithNotebook(noteId);
  return found !== undefined && (await notebookAccess(ctx, current, found.notebook)) === "edit";
}

export async function presentConversation(ctx: AppContext, current: CurrentUser, row: ConversationRow): Promise<ConversationJson> {
  const circle = row.ownerCircleId === null ? undefined : await ctx.stores.conversations.circleOf(row.ownerCircleId);
  const { subject, title } = await subjectOf(ctx, current, row);
  const other = await otherPartyName(ctx, current, row, circle?.name);
  return {
    id: row.id,
    subject,
    subjectOwnership: circle ? { circle } : { ownerName: row.ownerUserId === null ? "" : await userName(ctx, row.ownerUserId) },
    conversationInitiator: await loadUserReference(ctx, current, row.initiatorUserId),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    unread: await ctx.stores.conversations.hasUnread(row.id, current.user.id),
    subjectTitle: title,
    ...(other === undefined ? {} : { otherPartyName: other }),
    mayEditNote: await mayEditSubjectNote(ctx, current, subject),
  };
}

function validMessage(text: unknown): string {
  const message = typeof text === "string" ? text.trim() : "";
  if (!message) throw new ValidationError({ message: "must not be blank" });
  if (message.length > MAX_MESSAGE_LENGTH) throw new ValidationError({ message: `size must be at most ${MAX_MESSAGE_LENGTH}` });
  return message;
}

/** Starts a conversation and posts its first message, in one transaction. */
function start(ctx: AppContext, current: CurrentUser, subject: ConversationSubject, notebook: NotebookRow, firstMessage: unknown) {
  const message = validMessage(firstMessage);
  return ctx.stores.conversations.start(
    { initiatorUserId: current.user.id, ...subject, ...ownershipOf(notebook) },
    message,
    ctx.clock.now(),
  );
}

/** "Start a conversation about this note": any reader of the note, with the note's owner (or circle). */
export async function startConversationAboutNote(
  ctx: AppContext,
  current: CurrentUser,
  noteId: number,
  message: unknown,
): Promise<ConversationJson> {
  const { note, notebook } = await requireNoteWithNotebook(ctx, noteId);
  await authorizeRead(ctx, current, notebook);
  return presentConversation(ctx, current, await start(ctx, current, { subjectNoteId: note.id }, notebook, message));
}

/** An answered recall question of the user's: a conversation with the note's owner. */
export async function startConversationAboutRecallPrompt(
  ctx: AppContext,
  current: CurrentUser,
  promptId: number,
  message: unknown,
): Promise<ConversationJson> {
  const loaded = await ownRecallPrompt(ctx, current, promptId);
  return presentConversation(
    ctx,
    current,
    await start(ctx, current, { subjectRecallPromptId: loaded.prompt.id }, loaded.notebook, message),
  );
}

/** "Send feedback" on an assessment question the user answered. */
export async function startConversationAboutAssessmentQuestion(
  ctx: AppContext,
  current: CurrentUser | undefined,
  instanceId: number,
  feedback: unknown,
) {
  const { instance, attempt } = await ownQuestionInstance(ctx, current, instanceId);
  const notebook = await requireNotebook(ctx, attempt.notebookId);
  return presentConversation(ctx, current!, await start(ctx, current!, { subjectAssessmentQuestionId: instance.id }, notebook, feedback));
}

const presentAll = (ctx: AppContext, current: CurrentUser, rows: ConversationRow[]) =>
  Promise.all(rows.map((row) => presentConversation(ctx, current, row)));

/** GET /conversation/all: newest activity first. */
export async function conversationsOf(ctx: AppContext, current: CurrentUser): Promise<ConversationJson[]> {
  return presentAll(ctx, current, await ctx.stores.conversations.ofParty(current.user.id));
}

/** GET /conversation/note/{note}: the note's conversations the user is a party to. */
export async function conversationsAboutNote(ctx: AppContext, current: CurrentUser, noteId: number): Promise<ConversationJson[]> {
  const { note, notebook } = await requireNoteWithNotebook(ctx, noteId);
  await authorizeRead(ctx, current, notebook);
  return presentAll(ctx, current, await ctx.stores.conversations.ofParty(current.user.id, note.id));
}

/** How many messages from others the user has not read (the Messages badge; one prepared count). */
export function unreadCount(ctx: AppContext, current: CurrentUser): Promise<number> {
  return ctx.stores.conversations.unreadCount(current.user.id);
}

/** GET /conversation/unread: the messages from others the user has not read, oldest first. */
export async function unreadMessages(ctx: AppContext, current: CurrentUser): Promise<ConversationMessageJson[]> {
  return presentMessages(ctx, current, await ctx.stores.conversations.unreadMessages(current.user.id));
}

/** A conversation the user is a party to (404 unknown, 403 a stranger's). */
export async function partyConversation(
  ctx: AppContext,
  current: CurrentUser | undefined,
  conversationId: number,
): Promise<ConversationRow> {
  const row = await ctx.stores.conversations.byId(conversationId);
  if (!row) throw new NotFoundError("Conversation");
  await authorizeConversationParty(ctx, current, row);
  return row;
}

/** PATCH /conversation/{id}/read: marks it read; answers the messages still unread, as the contract does (for the badge). */
export async function markReadAndListUnread(
  ctx: AppContext,
  current: CurrentUser,
  conversationId: number,
): Promise<ConversationMessageJson[]> {
  await markRead(ctx, current, conversationId);
  return unreadMessages(ctx, current);
}

/** Marks the messages others sent as read (for every member of a circle at once). */
export async function markRead(ctx: AppContext, current: CurrentUser, conversationId: number): Promise<ConversationJson> {
  const row = await partyConversation(ctx, current, conversationId);
  await ctx.stores.conversations.markRead(row.id, current.user.id);
  return presentConversation(ctx, current, row);
}

/** GET /conversation/{id}: fetching it marks it read. */
export function showConversation(ctx: AppContext, current: CurrentUser, conversationId: number): Promise<ConversationJson> {
  return markRead(ctx, current, conversationId);
}

export async function presentMessages(
  ctx: AppContext,
  reader: CurrentUser,
  rows: ConversationMessageRow[],
): Promise<ConversationMessageJson[]> {
  const senders = await loadUserReferences(
    ctx,
    reader,
    rows.flatMap((row) => (row.senderUserId === null ? [] : [row.senderUserId])),
  );
  return rows.map((row) => {
    const sender = row.senderUserId === null ? undefined : (senders.get(row.senderUserId) ?? missingUser(row.senderUserId));
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
export async function messagesOf(ctx: AppContext, current: CurrentUser, conversationId: number): Promise<ConversationMessageJson[]> {
  const row = await partyConversation(ctx, current, conversationId);
  return presentMessages(ctx, current, await ctx.stores.conversations.messagesOf(row.id));
}

/** POST /conversation/{id}/send: a party posts; the conversation moves to the top of everyone's list. */
export async function sendMessage(
  ctx: AppContext,
  current: CurrentUser,
  conversationId: number,
  text: unknown,
): Promise<ConversationMessageJson> {
  const row = await partyConversation(ctx, current, conversationId);
  const message = validMessage(text);
  const saved = await ctx.stores.conversations.post(row.id, current.user.id, message, ctx.clock.now());
  return (await presentMessages(ctx, current, [saved]))[0]!;
}
