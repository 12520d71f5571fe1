import type { NoteJson } from "../../lib/notes-queries";

/** Placeholder (being written): the search-then-link flow. */
export function LinkFlow({ onClose }: { note: NoteJson; onClose: () => void }) {
  onClose();
  return null;
}

/** Placeholder (being written): the "Referenced by" list. */
export function ReferencedBy(_props: { notes: NoteJson[] }) {
  return null;
}
