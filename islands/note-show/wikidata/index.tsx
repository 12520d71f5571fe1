import type { NoteJson } from "../../lib/notes-queries";

/** Placeholder (being written): the "wikidata options" toolbar button and its dialogs. */
export function WikidataOptions(_props: { note: NoteJson; editable: boolean }) {
  return null;
}
