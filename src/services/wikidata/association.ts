import { eq } from "drizzle-orm";
import type { AppContext } from "../../context";
import { notes } from "../../db/schema";
import { editableNote } from "../notes/note-service";
import { type NoteRealmJson, realmOf } from "../notes/presenters";
import { getNote } from "../notes/rows";
import { validWikidataId } from "../notes/validation";
import type { CurrentUser } from "../users";
import { applyWikidataEnrichment, prepareWikidataEnrichment } from "./enrichment";
import { assertWikidataIdUnique } from "./uniqueness";

/**
 * Associates a note the user may edit with a Wikidata entity (or, with "", removes the
 * association). A new id must be unique in the notebook; the entity's description (a person's
 * country and birthday, a place's coordinates) is prepended to the details, as the reference
 * does on association. Sub-notes are only made on creation. Answers the note's realm.
 */
export async function updateWikidataId(
  ctx: AppContext,
  current: CurrentUser,
  noteId: number,
  wikidataIdInput: string,
): Promise<NoteRealmJson> {
  const note = editableNote(ctx, current, noteId);
  const wikidataId = validWikidataId(wikidataIdInput);
  if (wikidataId === note.wikidataId) return realmOf(ctx, current, note);
  if (wikidataId === null) {
    ctx.db.update(notes).set({ wikidataId: null, updatedAt: ctx.clock.now() }).where(eq(notes.id, note.id)).run();
    return realmOf(ctx, current, getNote(ctx, note.id));
  }
  assertWikidataIdUnique(ctx, note.notebookId, wikidataId, note.id);
  const enrichment = await prepareWikidataEnrichment(ctx, note.notebookId, wikidataId, { subNotes: false });
  ctx.sqlite
    .transaction(() => {
      // Checked again: the note or the notebook may have changed while Wikidata answered.
      const fresh = editableNote(ctx, current, noteId);
      assertWikidataIdUnique(ctx, fresh.notebookId, wikidataId, fresh.id);
      ctx.db.update(notes).set({ wikidataId, updatedAt: ctx.clock.now() }).where(eq(notes.id, fresh.id)).run();
      applyWikidataEnrichment(ctx, fresh.id, enrichment);
    })
    .immediate();
  return realmOf(ctx, current, getNote(ctx, note.id));
}
