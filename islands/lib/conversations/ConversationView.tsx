import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { api, call } from "../api";
import { LocalTime } from "../dates";
import { menuBadgeQuery } from "../learning-queries";
import { renderMarkdownSafely } from "../markdown";
import { currentUserInfoQuery } from "../queries";
import { AiReplyButton, AiReplyView } from "./AiReply";
import { MessageInput } from "./MessageInput";
import { type ConversationJson, type ConversationMessageJson, conversationsQuery, displayedMessage, messagesQuery } from "./queries";
import { useAiReply } from "./use-ai-reply";

/** A message: who wrote it and when; the AI's Markdown rendered as note details are, people's text as typed. */
function Message({ message, mine }: { message: ConversationMessageJson; mine: boolean }) {
  const text = displayedMessage(message.message);
  return (
    <li className={`message${mine ? " is-mine" : ""}${message.sender ? "" : " is-ai"}`}>
      <span className="message-meta">
        <span className="message-sender">{message.sender?.name ?? "AI"}</span> <LocalTime iso={message.createdAt} />
      </span>
      {message.sender ? (
        <p className="message-text" dir="auto">
          {text}
        </p>
      ) : (
        <div
          className="message-text markdown"
          dir="auto"
          // biome-ignore lint/security/noDangerouslySetInnerHtml: renderMarkdownSafely escapes raw HTML and keeps only safe URLs.
          dangerouslySetInnerHTML={{ __html: renderMarkdownSafely(text) }}
        />
      )}
    </li>
  );
}

/**
 * One conversation: its messages (asked for again every few seconds while open, so the other
 * party's replies appear), the AI's reply and suggestions as they come (scrolled into view), and
 * the send box. Opening it marks it read. `inviteAi` asks the AI to reply as it opens (the first
 * message was sent with the conversation).
 */
export function ConversationView({ conversation, inviteAi = false }: { conversation: ConversationJson; inviteAi?: boolean }) {
  const queryClient = useQueryClient();
  const { data: messages } = useQuery(messagesQuery(conversation.id));
  const { data: me } = useQuery(currentUserInfoQuery());
  const endRef = useRef<HTMLLIElement>(null);
  const count = messages?.length ?? 0;
  const reloadMessages = () => void queryClient.invalidateQueries({ queryKey: messagesQuery(conversation.id).queryKey });
  const ai = useAiReply({ conversationId: conversation.id, noteId: conversation.subject.note?.id, onDone: reloadMessages });
  const invited = useRef(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: once, as it opens.
  useEffect(() => {
    if (!inviteAi || invited.current) return;
    invited.current = true;
    void ai.invite();
  }, []);

  // Reading marks the conversation read (for every member of a circle); the badge and list follow.
  // Again when messages arrive while it is open: a poll that brings nothing new keeps the same
  // array (react-query's structural sharing), so this does not run on every poll.
  useEffect(() => {
    if (!messages) return;
    void call(api.conversation({ conversationId: conversation.id }).read.patch(), { silent: true }).then(() => {
      void queryClient.invalidateQueries({ queryKey: menuBadgeQuery("messages").queryKey });
      void queryClient.invalidateQueries({ queryKey: conversationsQuery().queryKey });
    });
  }, [conversation.id, messages, queryClient]);

  // The newest message, the reply being written and a suggestion waiting for an answer stay in view.
  const suggestions = ai.waiting?.suggestions.filter((s) => !s.outcome).length ?? 0;
  // biome-ignore lint/correctness/useExhaustiveDependencies: these are the triggers: scroll when one of them changes.
  useEffect(() => {
    endRef.current?.scrollIntoView?.({ block: "nearest" });
  }, [count, suggestions, ai.reply.length > 0, ai.error]);

  async function send(message: string) {
    await call(api.conversation({ conversationId: conversation.id }).send.post({ message }));
    reloadMessages();
  }

  // A note the caller may no longer read: the messages stay, the AI is not asked about it.
  const subjectUnreadable = Boolean(conversation.subject.note?.unreadable || conversation.subject.answeredQuestion?.note.unreadable);

  return (
    <div className="conversation-view">
      <ol className="message-list" aria-label="conversation history">
        {(messages ?? []).map((message) => (
          <Message key={message.id} message={message} mine={message.sender?.id === me?.user?.id} />
        ))}
        {ai.active && (
          <li className="message is-ai ai-reply-item">
            <span className="message-meta">
              <span className="message-sender">AI</span>
            </span>
            <AiReplyView ai={ai} mayEdit={conversation.mayEditNote ?? false} />
          </li>
        )}
        <li ref={endRef} aria-hidden="true" className="message-end" />
      </ol>
      <MessageInput
        onSend={send}
        extra={subjectUnreadable ? undefined : (text, clear) => <AiReplyButton ai={ai} message={text} onMessageSent={clear} />}
      />
    </div>
  );
}
