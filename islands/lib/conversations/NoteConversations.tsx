import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { icons } from "../icons";
import { lazyComponent } from "../lazy";
import { currentUserInfoQuery } from "../queries";

const PARAM = "conversation";

/** The panel's code (conversation view, message input, AI replies) is fetched when it first opens. */
const NoteConversationsPanel = lazyComponent(() => import("./NoteConversationsPanel").then((m) => m.NoteConversationsPanel));

/**
 * "Ask AI about this note" and "Start a conversation about this note": both open the panel beside
 * the note (`?conversation=true` opens it on arrival) with the note's conversations. Ask AI opens
 * it on a new conversation, the message box ready: its question starts the conversation and the
 * AI's reply in one step. A conversation goes to the note's owner (or circle) too.
 */
export function NoteConversations({ noteId }: { noteId: number }) {
  const { data: me } = useQuery(currentUserInfoQuery());
  const [open, setOpen] = useState<false | "conversations" | "ask-ai">(false);

  useEffect(() => {
    if (new URL(window.location.href).searchParams.get(PARAM) === "true") setOpen("conversations");
  }, []);

  function toggle(next: typeof open) {
    setOpen(next);
    const url = new URL(window.location.href);
    if (next) url.searchParams.set(PARAM, "true");
    else url.searchParams.delete(PARAM);
    history.replaceState(history.state, "", url);
  }

  if (!me?.user) return null;
  return (
    <>
      <div className="note-conversation-buttons">
        <button
          type="button"
          className="button small note-ask-ai"
          aria-expanded={open === "ask-ai"}
          onClick={() => toggle(open === "ask-ai" ? false : "ask-ai")}
        >
          {icons.messages()} Ask AI about this note
        </button>
        <button
          type="button"
          className="button small note-conversation-toggle"
          aria-label="Start a conversation about this note"
          aria-expanded={open === "conversations"}
          onClick={() => toggle(open === "conversations" ? false : "conversations")}
        >
          {icons.messages()} Start a conversation
        </button>
      </div>
      {/* Only ever open after a click or the effect above: the server's render never waits for it. */}
      {open && <NoteConversationsPanel key={open} noteId={noteId} startNew={open === "ask-ai"} />}
    </>
  );
}
