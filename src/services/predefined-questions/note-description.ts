import type { AppContext } from "../../context";
import { bareNote } from "../graph/bare-note";
import { Neighbourhood } from "../graph/neighbourhood";
import type { NoteRow } from "../notes/rows";
import { ReadableNotes, type Reader } from "../policies";

/**
 * The single-note description: a header and the note as a pretty BareNote, details in full, its
 * parent and a link's ends as the reader may see them. What refining a question tells the AI, and
 * what a fine-tuning suggestion keeps.
 */
export async function noteDescription(ctx: AppContext, reader: Reader, note: NoteRow): Promise<string> {
  const hood = new Neighbourhood(ctx, await ReadableNotes.of(ctx, reader));
  await hood.loadEnds([note]);
  return `The note of current focus (in JSON format):\n${JSON.stringify(bareNote(note, hood), null, 2)}`;
}
