import { queryOptions } from "@tanstack/react-query";
import type { ConversationJson } from "../../../src/services/conversations/conversation-service";
import { api, call } from "../api";

export type { ConversationJson, ConversationMessageJson } from "../../../src/services/conversations/conversation-service";

/** While a conversation is open its messages are asked for again this often (others may be writing). */
export const MESSAGES_POLL_MS = 4000;

export const conversationsQuery = () =>
  queryOptions({
    queryKey: ["conversations"],
    queryFn: () => call(api.conversation.all.get(), { silent: true }),
    refetchInterval: MESSAGES_POLL_MS,
  });

export const noteConversationsQuery = (noteId: number) =>
  queryOptions({
    queryKey: ["conversations", "note", noteId],
    queryFn: () => call(api.conversation.note({ note: noteId }).get(), { silent: true }),
  });

export const messagesQuery = (conversationId: number) =>
  queryOptions({
    queryKey: ["conversation-messages", conversationId],
    queryFn: () => call(api.conversation({ conversationId }).messages.get(), { silent: true }),
    refetchInterval: MESSAGES_POLL_MS,
  });

/** Wrapping double quotes are not shown (spec 5): a message sent as a JSON string reads as its text. */
export const displayedMessage = (message: string) =>
  message.length >= 2 && message.startsWith('"') && message.endsWith('"') ? message.slice(1, -1) : message;

/**
 * Whom a conversation is with, for its label: "With Alice", "With Chess club", or "You and the AI"
 * for one about your own note that you started (nobody else reads it; only the AI answers).
 */
export function conversationPartyText(conversation: ConversationJson): string {
  return conversation.otherPartyName ? `With ${conversation.otherPartyName}` : "You and the AI";
}
