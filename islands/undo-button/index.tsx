import { useQueryClient } from "@tanstack/react-query";
import { ApiError, api, call } from "../lib/api";
import { icons } from "../lib/icons";
import { type NoteRealmJson, notePath, noteRealmQuery } from "../lib/notes-queries";
import { alertPopup, showToast } from "../lib/ui-store";
import { popUndo, type UndoEntry, useUndoHistory } from "../lib/undo-history";

const UNDO_CONFLICT = "Someone else has changed this text since, in the same place: this edit can no longer be undone.";

/** Re-runs the reverse of an undo entry on the server; answers the note's new realm. */
function reverse(entry: UndoEntry): Promise<NoteRealmJson> {
  switch (entry.type) {
    case "edit title":
      return call(
        api.text_content({ note: entry.noteId }).title.patch({ newTitle: entry.textContent ?? "", baseRevision: entry.baseRevision }),
        { silent: true },
      );
    case "edit details":
      return call(
        api.text_content({ note: entry.noteId }).details.patch({ details: entry.textContent ?? "", baseRevision: entry.baseRevision }),
        { silent: true },
      );
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
    let realm: NoteRealmJson;
    try {
      realm = await reverse(entry);
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) await alertPopup(UNDO_CONFLICT);
      else showToast((error as Error).message, "error");
      return;
    }
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
