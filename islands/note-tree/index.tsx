/** Placeholder: the note-tree sidebar island (being written). */
export default function NoteTree(_props: { rootNoteId: number; focusNoteId: number; ancestorIds: number[]; readonly: boolean }) {
  return null;
}
