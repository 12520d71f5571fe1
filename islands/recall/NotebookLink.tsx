import { type NotebookJson, notePath } from "../lib/notes-queries";

/** The notebook a question comes from, linked to its head note. */
export function NotebookLink({ notebook }: { notebook: NotebookJson }) {
  return (
    <p className="recall-notebook">
      <span className="visually-hidden">Notebook: </span>
      <a href={notePath(notebook.headNoteId)}>{notebook.title}</a>
    </p>
  );
}
