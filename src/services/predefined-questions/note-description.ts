import type { AppContext } from "../../context";
import { bareNote } from "../graph/bare-note";
import { Neighbourhood } from "../graph/neighbourhood";
import type { NoteRow } from "../notes/rows";
import type { Reader } from "../policies";

/**
 * The single-note description: a header and the note as a pretty BareNote, details in full, its
 * parent and a link's ends as the reader may see them. What refining a question tells the AI, and
 * what a fine-tuning suggestion keeps.
 */
export function noteDescription(ctx: AppContext, reader: Reader, note: NoteRow): string {
  return `The note of current focus (in JSON format):\n${JSON.stringify(bareNote(note, new Neighbourhood(ctx, reader)), null, 2)}`;
}
