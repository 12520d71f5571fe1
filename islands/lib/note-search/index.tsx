import type { NoteTopologyJson } from "../notes-queries";

export interface NoteSearchDialogProps {
  /** Searching from a note ("search and link note"): it is never a result, and results offer Link and Move Under. */
  noteId?: number;
  /** The dialog's title, e.g. "Search and link note" or "Search note". */
  title: string;
  onClose: () => void;
  /** The Link button of a result. */
  onLink?: (target: NoteTopologyJson) => void;
  /** The Move Under button of a result (asks for confirmation first). */
  onMoveUnder?: (target: NoteTopologyJson) => void;
}

/** Placeholder (being written): the note-search dialog. */
export function NoteSearchDialog(_props: NoteSearchDialogProps) {
  return null;
}
