/** Placeholder (being written): the "Export..." dialog (graph export). */
export function ExportDialog({ onClose }: { noteId: number; onClose: () => void }) {
  onClose();
  return null;
}
