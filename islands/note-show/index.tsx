/** Placeholder: the note view and editor island (being written). */
export default function NoteShow(_props: { noteId: number; readonly: boolean; initialDetailsHtml: string }) {
  return null;
}
