/** Placeholder (being written): the note's image with its mask and URL, and their edit dialogs. */
export function NoteAccessoryView(_props: { noteId: number }) {
  return null;
}
export function EditNoteImageDialog({ onClose }: { noteId: number; onClose: () => void }) {
  onClose();
  return null;
}
export function EditNoteUrlDialog({ onClose }: { noteId: number; onClose: () => void }) {
  onClose();
  return null;
}
