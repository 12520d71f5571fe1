import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { api, call } from "../api";
import { menuBadgeQuery } from "../learning-queries";
import { currentUserInfoQuery } from "../queries";
import { AiReplyButton } from "./AiReply";
import { MessageInput } from "./MessageInput";
import { type ConversationJson, conversationsQuery, displayedMessage, messagesQuery } from "./queries";

/**
 * One conversation: its messages (asked for again every few seconds while open, so the other
 * party's replies appear) and the send box. Opening it marks it read.
 */
export function ConversationView({ conversation }: { conversation: ConversationJson }) {
  const queryClient = useQueryClient();
  const { data: messages } = useQuery(messagesQuery(conversation.id));
  const { data: me } = useQuery(currentUserInfoQuery());
  const endRef = useRef<HTMLLIElement>(null);
  const count = messages?.length ?? 0;

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

  // biome-ignore lint/correctness/useExhaustiveDependencies: count is the trigger: scroll to the newest message when one arrives.
  useEffect(() => {
    endRef.current?.scrollIntoView?.({ block: "end" });
  }, [count]);

  async function send(message: string) {
    await call(api.conversation({ conversationId: conversation.id }).send.post({ message }));
    await queryClient.invalidateQueries({ queryKey: messagesQuery(conversation.id).queryKey });
  }

  return (
    <div className="conversation-view">
      <ol className="message-list" aria-label="conversation history">
        {(messages ?? []).map((message) => {
          const mine = message.sender?.id === me?.user?.id;
          return (
            <li key={message.id} className={`message${mine ? " is-mine" : ""}${message.sender ? "" : " is-ai"}`}>
              <span className="message-sender">{message.sender?.name ?? "AI"}</span>
              <p className="message-text" dir="auto">
                {displayedMessage(message.message)}
              </p>
            </li>
          );
        })}
        <li ref={endRef} aria-hidden="true" className="message-end" />
      </ol>
      <MessageInput
        onSend={send}
        extra={(text, clear) => (
          <AiReplyButton
            conversationId={conversation.id}
            noteId={conversation.subject.note?.id}
            message={text}
            onMessageSent={clear}
            onDone={() => void queryClient.invalidateQueries({ queryKey: messagesQuery(conversation.id).queryKey })}
          />
        )}
      />
    </div>
  );
}
