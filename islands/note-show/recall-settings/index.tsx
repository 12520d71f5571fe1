import { useQuery } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { useElementId } from "../../lib/island-id";
import { lazyComponent } from "../../lib/lazy";
import { noteInfoQuery, type RecallSettingJson } from "../../lib/learning-queries";
import { currentUserInfoQuery } from "../../lib/queries";

/** "Note Recall Settings" (the toolbar's more options, or Edit beside the summary): loaded when opened. */
export const RecallSettingsDialog = lazyComponent(() => import("./RecallSettingsDialog").then((m) => m.RecallSettingsDialog));
// The note info is fetched in the browser (never in the server's render), so its table can wait for its code.
const MemoryTrackerTable = lazyComponent(() => import("./MemoryTrackerTable").then((m) => m.MemoryTrackerTable));

function settingSummary(setting: RecallSettingJson): string[] {
  return [
    `Level ${setting.level}`,
    ...(setting.rememberSpelling ? ["Remember Spelling"] : []),
    ...(setting.skipMemoryTracking ? ["Skip Memory Tracking"] : []),
  ];
}

/**
 * Under the note's dates: its recall settings in brief (with an edit button when the note may be
 * edited) and, when the user is tracking the note, the "Memory Trackers" table.
 */
export function NoteInfoBar({ noteId, readonly }: { noteId: number; readonly: boolean }) {
  // Recall settings and trackers are a learner's: a visitor reading a bazaar note signed out has none.
  const { data: who } = useQuery(currentUserInfoQuery());
  const { data: info } = useQuery({ ...noteInfoQuery(noteId), enabled: Boolean(who?.user) });
  const [editing, setEditing] = useState(false);
  const closeEditor = useCallback(() => setEditing(false), []); // a stable onClose keeps the dialog's focus
  const headingId = useElementId(`note-${noteId}-trackers-heading`);
  if (!info) return null;
  return (
    <section className="note-info-bar" aria-label="note info">
      <div className="recall-setting-summary">
        <span className="muted">Recall:</span>
        <ul className="recall-setting-chips" aria-label="recall settings">
          {settingSummary(info.recallSetting).map((item) => (
            <li key={item} className="recall-setting-chip">
              {item}
            </li>
          ))}
        </ul>
        {!readonly && (
          <button type="button" className="button small" aria-label="Edit recall settings" onClick={() => setEditing(true)}>
            Edit
          </button>
        )}
      </div>
      {info.memoryTrackers.length > 0 && (
        <div className="memory-trackers">
          <h3 id={headingId}>Memory Trackers</h3>
          <MemoryTrackerTable noteId={noteId} trackers={info.memoryTrackers} labelledBy={headingId} />
        </div>
      )}
      {editing && <RecallSettingsDialog noteId={noteId} onClose={closeEditor} />}
    </section>
  );
}
