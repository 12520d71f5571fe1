import { useQueryClient } from "@tanstack/react-query";
import { refreshLearningCounters } from "../../lib/learning-queries";
import { type RecallSettingField, RecallSettingsForm } from "../../lib/recall-settings-form";
import { Modal } from "../../lib/ui/Dialog";

/** Skipping memory tracking adds or removes the note from what may be assimilated: recount. */
function useOnRecallSettingSaved() {
  const queryClient = useQueryClient();
  return (field: RecallSettingField) => {
    if (field === "skipMemoryTracking") refreshLearningCounters(queryClient);
  };
}

/** "Note Recall Settings", opened from the toolbar's "more options" menu. */
export function RecallSettingsDialog({ noteId, onClose }: { noteId: number; onClose: () => void }) {
  const onSaved = useOnRecallSettingSaved();
  return (
    <Modal title="Note Recall Settings" onClose={onClose}>
      <RecallSettingsForm noteId={noteId} onSaved={onSaved} />
      <div className="dialog-actions">
        <button type="button" className="button primary" onClick={onClose}>
          Done
        </button>
      </div>
    </Modal>
  );
}
