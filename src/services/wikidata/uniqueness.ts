import type { AppContext } from "../../context";
import { ValidationError } from "../errors";
import type { NoteRow } from "../notes/rows";

export const DUPLICATE_WIKIDATA_ID = "Duplicate Wikidata ID Detected.";

/** The error for a Wikidata id another undeleted note of the notebook already has. */
export function duplicateWikidataId(): never {
  throw new ValidationError({ wikidataId: DUPLICATE_WIKIDATA_ID });
}

/** The first undeleted note of the notebook with this Wikidata id (other than `exceptNoteId`). */
export function findNoteWithWikidataId(
  ctx: AppContext,
  notebookId: number,
  wikidataId: string,
  exceptNoteId?: number,
): Promise<NoteRow | undefined> {
  return ctx.stores.notes.noteWithWikidataId(notebookId, wikidataId, exceptNoteId);
}

/**
 * Refuses a Wikidata id that another undeleted note of the notebook already has: a 400 binding
 * error on the field wikidataId, "Duplicate Wikidata ID Detected.". No id (null, undefined or
 * "") is never a duplicate.
 */
export async function assertWikidataIdUnique(
  ctx: AppContext,
  notebookId: number,
  wikidataId: string | null | undefined,
  exceptNoteId?: number,
): Promise<void> {
  if (!wikidataId) return;
  if (await findNoteWithWikidataId(ctx, notebookId, wikidataId, exceptNoteId)) duplicateWikidataId();
}
