import type { AppContext } from "../../context";
import { bareNote } from "../graph/bare-note";
import { findNote, type NoteRow } from "../notes/rows";

/**
 * The single-note description: a header and the note as a pretty BareNote,
 * details in full. What refining a question tells the AI, and what a fine-tuning suggestion keeps.
 */
export function noteDescription(ctx: AppContext, note: NoteRow): string {
  const lookup = { get: (id: number) => findNote(ctx, id) };
  return `The note of current focus (in JSON format):\n${JSON.stringify(bareNote(note, lookup), null, 2)}`;
}
