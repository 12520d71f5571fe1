import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, call } from "../api";
import { currentUserInfoQuery } from "../queries";
import { ConversationView } from "./ConversationView";
import { MessageInput } from "./MessageInput";
import { type ConversationJson, conversationPartyText, noteConversationsQuery } from "./queries";

/**
 * The open panel of NoteConversations: the note's conversations, or a first message that starts
 * one. "Send message and invite AI to reply" on that first message starts the conversation and
 * the AI's reply at once. `startNew` opens on a new conversation (as "Ask AI about this note" does).
 */
export function NoteConversationsPanel({ noteId, startNew = false }: { noteId: number; startNew?: boolean }) {
  const queryClient = useQueryClient();
  const { data: me } = useQuery(currentUserInfoQuery());
  const { data: conversations } = useQuery({ ...noteConversationsQuery(noteId), enabled: Boolean(me?.user) });
  const [selectedId, setSelectedId] = useState<number | "new" | undefined>(startNew ? "new" : undefined);
  const [invitedAi, setInvitedAi] = useState<number>();

  if (!me?.user) return null;
  const list = conversations ?? [];
  const selected: ConversationJson | undefined = selectedId === "new" ? undefined : (list.find((c) => c.id === selectedId) ?? list[0]);

  async function start(message: string, inviteAi = false) {
    const created = await call(api.conversation.note({ note: noteId }).post({ message }));
    queryClient.setQueryData(noteConversationsQuery(noteId).queryKey, (old: ConversationJson[] | undefined) => [
      created,
      ...(old ?? []).filter((c) => c.id !== created.id),
    ]);
    if (inviteAi) setInvitedAi(created.id);
    setSelectedId(created.id);
    void queryClient.invalidateQueries({ queryKey: noteConversationsQuery(noteId).queryKey });
  }

  return (
    <section className="note-conversations card" aria-label="Conversations about this note">
      <h2>Conversations about this note</h2>
      {list.length > 0 && (
        <div className="note-conversation-picker">
          {list.map((conversation) => (
            <button
              key={conversation.id}
              type="button"
              className="button small"
              aria-pressed={selected?.id === conversation.id}
              onClick={() => setSelectedId(conversation.id)}
            >
              {conversationPartyText(conversation)}
              {conversation.unread ? " (unread)" : ""}
            </button>
          ))}
          <button type="button" className="button small" aria-pressed={selectedId === "new"} onClick={() => setSelectedId("new")}>
            New conversation
          </button>
        </div>
      )}
      {selected ? (
        <ConversationView key={selected.id} conversation={selected} inviteAi={invitedAi === selected.id} />
      ) : (
        <MessageInput
          onSend={(message) => start(message)}
          placeholder="Ask the AI, or write to whoever else keeps this note"
          autoFocus={startNew}
          extra={(text, clear) => (
            <button type="button" className="button" disabled={!text} onClick={() => void start(text, true).then(clear, () => {})}>
              Send message and invite AI to reply
            </button>
          )}
        />
      )}
    </section>
  );
}
