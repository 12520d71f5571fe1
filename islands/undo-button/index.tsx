import { useQueryClient } from "@tanstack/react-query";
import { api, call } from "../lib/api";
import { icons } from "../lib/icons";
import { type NoteRealmJson, notePath, noteRealmQuery } from "../lib/notes-queries";
import { alertPopup } from "../lib/ui-store";
import { popUndo, type UndoEntry, useUndoHistory } from "../lib/undo-history";

/** Re-runs the reverse of an undo entry on the server; answers the note's new realm. */
function reverse(entry: UndoEntry): Promise<NoteRealmJson> {
  switch (entry.type) {
    case "edit title":
      return call(api.text_content({ note: entry.noteId }).title.patch({ newTitle: entry.textContent ?? "" }));
    case "edit details":
      return call(api.text_content({ note: entry.noteId }).details.patch({ details: entry.textContent ?? "" }));
    case "delete note":
      return call(api.notes({ note: entry.noteId })["undo-delete"].patch());
  }
}

/** The top-bar undo button: shown only when there is history, titled "undo {type}". */
export default function UndoButton() {
  const history = useUndoHistory();
  const queryClient = useQueryClient();
  const last = history.at(-1);
  if (!last) return null;

  async function undo() {
    let entry: UndoEntry;
    try {
      entry = popUndo();
    } catch (error) {
      await alertPopup((error as Error).message);
      return;
    }
    const realm = await reverse(entry);
    const onItsPage = window.location.pathname === notePath(entry.noteId);
    if (entry.type !== "delete note" && onItsPage) {
      queryClient.setQueryData(noteRealmQuery(entry.noteId).queryKey, realm);
    } else {
      window.location.href = notePath(entry.noteId);
    }
  }

  const label = `undo ${last.type}`;
  return (
    <button type="button" className="icon-button undo-button" title={label} aria-label={label} onClick={undo}>
      {icons.undo()}
    </button>
  );
}
