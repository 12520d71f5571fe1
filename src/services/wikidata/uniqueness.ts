import { and, asc, eq, isNull, ne } from "drizzle-orm";
import type { AppContext } from "../../context";
import { notes } from "../../db/schema";
import { ValidationError } from "../errors";
import type { NoteRow } from "../notes/rows";

export const DUPLICATE_WIKIDATA_ID = "Duplicate Wikidata ID Detected.";

/** The first undeleted note of the notebook with this Wikidata id (other than `exceptNoteId`). */
export function findNoteWithWikidataId(
  ctx: AppContext,
  notebookId: number,
  wikidataId: string,
  exceptNoteId?: number,
): NoteRow | undefined {
  return ctx.db
    .select()
    .from(notes)
    .where(
      and(
        eq(notes.notebookId, notebookId),
        eq(notes.wikidataId, wikidataId),
        isNull(notes.deletedAt),
        exceptNoteId === undefined ? undefined : ne(notes.id, exceptNoteId),
      ),
    )
    .orderBy(asc(notes.id))
    .get();
}

/**
 * Refuses a Wikidata id that another undeleted note of the notebook already has: a 400 binding
 * error on the field wikidataId, "Duplicate Wikidata ID Detected.". No id (null, undefined or
 * "") is never a duplicate.
 */
export function assertWikidataIdUnique(
  ctx: AppContext,
  notebookId: number,
  wikidataId: string | null | undefined,
  exceptNoteId?: number,
): void {
  if (!wikidataId) return;
  if (findNoteWithWikidataId(ctx, notebookId, wikidataId, exceptNoteId)) {
    throw new ValidationError({ wikidataId: DUPLICATE_WIKIDATA_ID });
  }
}
