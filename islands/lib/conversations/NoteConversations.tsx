import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { api } from "../api";
import { icons } from "../icons";
import { currentUserInfoQuery } from "../queries";
import { ConversationView } from "./ConversationView";
import { MessageInput } from "./MessageInput";
import { type ConversationJson, noteConversationsQuery, otherParty } from "./queries";

const PARAM = "conversation";

/**
 * "Star a conversation about this note" (the reference's name; it reads "Start a conversation"):
 * opens the panel beside the note — `?conversation=true` opens it on arrival — with the note's
 * conversations, or a first message that starts one with the note's owner (or circle).
 */
export function NoteConversations({ noteId }: { noteId: number }) {
  const queryClient = useQueryClient();
  const { data: me } = useQuery(currentUserInfoQuery());
  const [open, setOpen] = useState(false);
  const { data: conversations } = useQuery({ ...noteConversationsQuery(noteId), enabled: open && Boolean(me?.user) });
  const [selectedId, setSelectedId] = useState<number | "new">();

  useEffect(() => {
    if (new URL(window.location.href).searchParams.get(PARAM) === "true") setOpen(true);
  }, []);

  function toggle(next: boolean) {
    setOpen(next);
    const url = new URL(window.location.href);
    if (next) url.searchParams.set(PARAM, "true");
    else url.searchParams.delete(PARAM);
    history.replaceState(history.state, "", url);
  }

  if (!me?.user) return null;
  const list = conversations ?? [];
  const selected: ConversationJson | undefined = selectedId === "new" ? undefined : list.find((c) => c.id === selectedId) ?? list[0];

  async function start(message: string) {
    const created = await api.post<ConversationJson>(`/api/conversation/note/${noteId}`, { message });
    await queryClient.invalidateQueries({ queryKey: noteConversationsQuery(noteId).queryKey });
    setSelectedId(created.id);
  }

  return (
    <>
      <button type="button" className="button small note-conversation-toggle" aria-label="Star a conversation about this note"
        aria-expanded={open} onClick={() => toggle(!open)}>
        {icons.messages()} Start a conversation
      </button>
      {open && (
        <section className="note-conversations card" aria-label="Conversations about this note">
          <h2>Conversations about this note</h2>
          {list.length > 0 && (
            <div className="note-conversation-picker">
              {list.map((conversation) => (
                <button key={conversation.id} type="button" className="button small"
                  aria-pressed={selected?.id === conversation.id} onClick={() => setSelectedId(conversation.id)}>
                  With {otherParty(conversation, me.user?.id)}{conversation.unread ? " (unread)" : ""}
                </button>
              ))}
              <button type="button" className="button small" aria-pressed={selectedId === "new"} onClick={() => setSelectedId("new")}>New conversation</button>
            </div>
          )}
          {selected ? <ConversationView key={selected.id} conversation={selected} /> : (
            <MessageInput onSend={start} placeholder="Ask the owner of this note, or say what you think" />
          )}
        </section>
      )}
    </>
  );
}
