import { useQuery, useQueryClient } from "@tanstack/react-query";
import { api, call } from "../lib/api";
import { notePath } from "../lib/notes-queries";
import { type BazaarNotebookJson, bazaarQuery } from "../lib/sharing/queries";
import { confirmPopup } from "../lib/ui-store";

/** "Manage Bazaar": every shared notebook, with "Remove" (after a confirmation). */
export function BazaarTab() {
  const queryClient = useQueryClient();
  const { data: entries, isPending } = useQuery(bazaarQuery());
  async function remove(entry: BazaarNotebookJson) {
    if (!(await confirmPopup(`Remove "${entry.notebook.title}" from the bazaar?`))) return;
    queryClient.setQueryData(bazaarQuery().queryKey, await call(api.bazaar({ bazaarNotebook: entry.id }).remove.post()));
  }
  if (isPending) return <p className="muted">Loading the bazaar...</p>;
  if (!entries || entries.length === 0) return <p className="empty-state">No notebook is in the bazaar.</p>;
  return (
    <ul className="admin-list">
      {entries.map((entry) => (
        <li key={entry.id} className="admin-list-item">
          <a href={notePath(entry.notebook.headNoteId)} className="admin-list-title" dir="auto">
            {entry.notebook.title}
          </a>
          <span className="muted">by {entry.notebook.creatorName}</span>
          <button type="button" className="button small danger" onClick={() => void remove(entry)}>
            Remove
          </button>
        </li>
      ))}
    </ul>
  );
}
