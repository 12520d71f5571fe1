import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { icons } from "../icons";
import { lazyComponent } from "../lazy";
import { currentUserInfoQuery } from "../queries";

const PARAM = "conversation";

/** The panel's code (conversation view, message input, AI replies) is fetched when it first opens. */
const NoteConversationsPanel = lazyComponent(() => import("./NoteConversationsPanel").then((m) => m.NoteConversationsPanel));

/**
 * "Star a conversation about this note" (the reference's name; it reads "Start a conversation"):
 * opens the panel beside the note — `?conversation=true` opens it on arrival — with the note's
 * conversations, or a first message that starts one with the note's owner (or circle).
 */
export function NoteConversations({ noteId }: { noteId: number }) {
  const { data: me } = useQuery(currentUserInfoQuery());
  const [open, setOpen] = useState(false);

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
  return (
    <>
      <button
        type="button"
        className="button small note-conversation-toggle"
        aria-label="Star a conversation about this note"
        aria-expanded={open}
        onClick={() => toggle(!open)}
      >
        {icons.messages()} Start a conversation
      </button>
      {/* Only ever open after a click or the effect above: the server's render never waits for it. */}
      {open && <NoteConversationsPanel noteId={noteId} />}
    </>
  );
}
