import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, call } from "../api";
import { currentUserInfoQuery } from "../queries";
import { ConversationView } from "./ConversationView";
import { MessageInput } from "./MessageInput";
import { type ConversationJson, noteConversationsQuery, otherParty } from "./queries";

/** The open panel of NoteConversations: the note's conversations, or a first message that starts one. */
export function NoteConversationsPanel({ noteId }: { noteId: number }) {
  const queryClient = useQueryClient();
  const { data: me } = useQuery(currentUserInfoQuery());
  const { data: conversations } = useQuery({ ...noteConversationsQuery(noteId), enabled: Boolean(me?.user) });
  const [selectedId, setSelectedId] = useState<number | "new">();

  if (!me?.user) return null;
  const list = conversations ?? [];
  const selected: ConversationJson | undefined = selectedId === "new" ? undefined : (list.find((c) => c.id === selectedId) ?? list[0]);

  async function start(message: string) {
    const created = await call(api.conversation.note({ note: noteId }).post({ message }));
    await queryClient.invalidateQueries({ queryKey: noteConversationsQuery(noteId).queryKey });
    setSelectedId(created.id);
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
              With {otherParty(conversation, me.user?.id)}
              {conversation.unread ? " (unread)" : ""}
            </button>
          ))}
          <button type="button" className="button small" aria-pressed={selectedId === "new"} onClick={() => setSelectedId("new")}>
            New conversation
          </button>
        </div>
      )}
      {selected ? (
        <ConversationView key={selected.id} conversation={selected} />
      ) : (
        <MessageInput onSend={start} placeholder="Ask the owner of this note, or say what you think" />
      )}
    </section>
  );
}
