/** Placeholder (being written): "Note Recall Settings" and the memory-tracker table of a note. */
export function RecallSettingsDialog({ onClose }: { noteId: number; onClose: () => void }) {
  onClose();
  return null;
}
export function NoteInfoBar(_props: { noteId: number; readonly: boolean }) {
  return null;
}
