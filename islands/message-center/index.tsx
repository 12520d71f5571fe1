import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { ConversationView } from "../lib/conversations/ConversationView";
import { conversationPartyText, conversationsQuery } from "../lib/conversations/queries";

const pathOf = (id?: number) => (id === undefined ? "/d/message-center" : `/d/message-center/${id}`);

/**
 * /d/message-center/{conversationId?}: the conversations on the left (subject, whom it is with,
 * an unread mark), the selected one on the right. On phones one pane at a time,
 * with a link back to the list. The URL follows the selection, so a reload or a link keeps it.
 */
export default function MessageCenter({ conversationId }: { conversationId?: number }) {
  const { data: conversations = [], isPending } = useQuery(conversationsQuery());
  const [selectedId, setSelectedId] = useState(conversationId);
  const selected = conversations.find((c) => c.id === selectedId);

  useEffect(() => {
    const onPop = () => {
      const match = /\/d\/message-center\/(\d+)$/.exec(window.location.pathname);
      setSelectedId(match ? Number(match[1]) : undefined);
    };
    window.addEventListener("popstate", onPop);
    return () => window.removeEventListener("popstate", onPop);
  }, []);

  function select(id: number | undefined) {
    setSelectedId(id);
    history.pushState(history.state, "", pathOf(id));
  }

  return (
    <div className={`message-center${selected ? " has-selection" : ""}`}>
      <nav className="conversation-list" aria-label="Conversations">
        {isPending ? (
          <p className="muted">Loading conversations...</p>
        ) : conversations.length === 0 ? (
          <p className="empty-state">There is no conversation currently.</p>
        ) : (
          <ul>
            {conversations.map((conversation) => (
              <li key={conversation.id}>
                <a
                  href={pathOf(conversation.id)}
                  aria-current={conversation.id === selectedId ? "page" : undefined}
                  className={`conversation-entry${conversation.unread ? " is-unread" : ""}`}
                  onClick={(event) => {
                    event.preventDefault();
                    select(conversation.id);
                  }}
                >
                  <span className="conversation-subject" dir="auto">
                    {conversation.subjectTitle}
                  </span>
                  <span className="conversation-parties" dir="auto">
                    {conversationPartyText(conversation)}
                  </span>
                  {conversation.unread && <span className="unread-mark">unread</span>}
                </a>
              </li>
            ))}
          </ul>
        )}
      </nav>
      <section className="conversation-pane" aria-label={selected ? `Conversation: ${selected.subjectTitle}` : "Conversation"}>
        {selected ? (
          <>
            <a
              href="/d/message-center"
              className="conversation-back"
              onClick={(event) => {
                event.preventDefault();
                select(undefined);
              }}
            >
              ← All conversations
            </a>
            <h2 className="conversation-title" dir="auto">
              {selected.subjectTitle}
            </h2>
            <ConversationView key={selected.id} conversation={selected} />
          </>
        ) : (
          <p className="empty-state">No conversation selected</p>
        )}
      </section>
    </div>
  );
}
