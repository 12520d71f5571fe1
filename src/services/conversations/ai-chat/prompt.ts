/** What the model sees for a reply: the instructions, the note's graph, the question and the conversation so far. */
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { PKM_INSTRUCTION } from "../../../ai/question-refinement";
import type { AppContext } from "../../../context";
import { defaultAdditionalInstructions } from "../../admin/assistant";
import { notebookAdditionalInstructions } from "../../ai-assistant/notebook-assistant";
import { BadRequestError, ForbiddenError, NotFoundError } from "../../errors";
import { DEFAULT_GRAPH_TOKEN_LIMIT, graphDescription } from "../../graph/build-graph";
import { type NoteRow, requireNote } from "../../notes/rows";
import { ReadableNotes } from "../../policies";
import { loadPromptOf, storedQuestion } from "../../recall-prompts/rows";
import type { CurrentUser } from "../../users";
import type { ConversationRow } from "../conversation-service";

/** Tells the model that this is a chat, so it only edits the note when asked. */
export const CONVERSATION_INSTRUCTION =
  "The user wants to have a conversation about the note of focus. Answer in Markdown. Do not call functions that update the note unless the user explicitly asks for it.";

const userName = async (ctx: AppContext, id: number) => (await ctx.stores.users.byId(id))?.name ?? "";

/** The note a reply is about, and for a recall-prompt conversation the question as the user met it. */
async function subjectOf(ctx: AppContext, conversation: ConversationRow): Promise<{ note: NoteRow; questionContext?: string }> {
  if (conversation.subjectNoteId !== null) return { note: await requireNote(ctx, conversation.subjectNoteId) };
  if (conversation.subjectRecallPromptId !== null) {
    const prompt = await ctx.stores.conversations.recallPrompt(conversation.subjectRecallPromptId);
    if (!prompt) throw new NotFoundError("Recall prompt");
    const loaded = await loadPromptOf(ctx, prompt);
    const details = {
      originalQuestionDefinition: {
        multipleChoicesQuestion: storedQuestion(loaded.question),
        correctChoiceIndex: loaded.question.correctAnswerIndex,
        strictChoiceOrder: false,
      },
      ...(prompt.answerChoiceIndex !== null ? { userAnswer: prompt.answerChoiceIndex } : {}),
      ...(prompt.answerCorrect !== null ? { userAnswerWasMarkedAs: prompt.answerCorrect ? "correct" : "incorrect" } : {}),
    };
    const questionContext =
      "The user tried to answer the question below about the note of focus. The user saw only the notebook's name, " +
      "not the note itself; a question that cannot be answered from that counts as wrong.\n" +
      JSON.stringify(details, null, 2);
    return { note: loaded.note, questionContext };
  }
  throw new BadRequestError("The AI can only reply in a conversation about a note or a recall question");
}

/**
 * Whose reading rights limit the note's graph: the initiator's (a bazaar reader, say), never the
 * owner's, since both parties read the reply and it must not retell notes the initiator cannot read.
 */
async function graphViewer(ctx: AppContext, current: CurrentUser, conversation: ConversationRow): Promise<CurrentUser> {
  if (conversation.initiatorUserId === current.user.id) return current;
  const user = await ctx.stores.users.byId(conversation.initiatorUserId);
  const account = user && (await ctx.stores.accounts.byId(user.accountId));
  if (!user || !account) throw new NotFoundError("Conversation");
  return { user, account };
}

export const SUBJECT_NOT_READABLE =
  "The note of this conversation is no longer readable to you or to who started it: the AI cannot reply about it";

/**
 * The subject's note, while both the caller and the initiator may read it (asked of the policy at
 * this moment): the reply is read by both and retells the note. Refused (403) otherwise; the
 * conversation and its messages stay.
 */
export async function readableSubject(ctx: AppContext, current: CurrentUser, conversation: ConversationRow) {
  const subject = await subjectOf(ctx, conversation);
  for (const reader of [current, await graphViewer(ctx, current, conversation)]) {
    if (!(await ReadableNotes.of(ctx, reader)).note(subject.note)) throw new ForbiddenError(SUBJECT_NOT_READABLE);
  }
  return subject;
}

/** The chat messages of a new reply: instructions, the note's graph, the question, then the conversation so far. */
export async function chatMessages(
  ctx: AppContext,
  current: CurrentUser,
  conversation: ConversationRow,
): Promise<ChatCompletionMessageParam[]> {
  const { note, questionContext } = await readableSubject(ctx, current, conversation);
  const instructions = [
    PKM_INSTRUCTION,
    (await defaultAdditionalInstructions(ctx)).trim(),
    (await notebookAdditionalInstructions(ctx, note.notebookId)).trim(),
    CONVERSATION_INSTRUCTION,
  ]
    .filter(Boolean)
    .join("\n\n");
  const messages: ChatCompletionMessageParam[] = [
    { role: "system", content: instructions },
    {
      role: "system",
      content: await graphDescription(ctx, note.id, DEFAULT_GRAPH_TOKEN_LIMIT, await graphViewer(ctx, current, conversation)),
    },
  ];
  if (questionContext) messages.push({ role: "system", content: questionContext });
  const history = await ctx.stores.conversations.messagesOf(conversation.id);
  const names = new Map<number, string>();
  for (const row of history) {
    if (row.senderUserId === null) {
      messages.push({ role: "assistant", content: row.message });
      continue;
    }
    if (!names.has(row.senderUserId)) names.set(row.senderUserId, await userName(ctx, row.senderUserId));
    messages.push({ role: "user", content: `\`${names.get(row.senderUserId)}\` says:\n-----------------\n${row.message}\n` });
  }
  return messages;
}
