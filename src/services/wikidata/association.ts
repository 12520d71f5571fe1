import type { AppContext } from "../../context";
import { ConflictError, NotFoundError } from "../errors";
import { noteTextSaved } from "../notes/note-changes";
import { editableNote } from "../notes/note-service";
import { type NoteRealmJson, realmOf } from "../notes/presenters";
import { requireNoteWithNotebook } from "../notes/rows";
import { validWikidataId } from "../notes/validation";
import { authorizeEdit } from "../policies";
import type { CurrentUser } from "../users";
import { prepareWikidataEnrichment } from "./enrichment";
import { assertWikidataIdUnique, duplicateWikidataId } from "./uniqueness";

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
  const note = await editableNote(ctx, current, noteId);
  const wikidataId = validWikidataId(wikidataIdInput);
  if (wikidataId === note.wikidataId) return realmOf(ctx, current, note);
  let enrichment: Awaited<ReturnType<typeof prepareWikidataEnrichment>> | undefined;
  if (wikidataId !== null) {
    await assertWikidataIdUnique(ctx, note.notebookId, wikidataId, note.id);
    enrichment = await prepareWikidataEnrichment(ctx, note.notebookId, wikidataId, { subNotes: false });
  }
  // Asked again once Wikidata answered (access may have changed meanwhile), and the write checks
  // that the note is still in that notebook, owned as it was when asked.
  const { notebook } = await requireNoteWithNotebook(ctx, note.id);
  await authorizeEdit(ctx, current, notebook);
  const changed = await ctx.stores.notes.setWikidataId(
    note.id,
    wikidataId,
    enrichment,
    ctx.clock.now(),
    (found) => {
      if (!found) throw new NotFoundError("Note");
      const asked = found.notebook;
      if (asked.id !== notebook.id || asked.creatorId !== notebook.creatorId || asked.circleId !== notebook.circleId) {
        throw new ConflictError("The note moved while Wikidata answered: please try again");
      }
    },
    duplicateWikidataId,
  );
  for (const id of changed) noteTextSaved(ctx, id);
  return realmOf(ctx, current, note);
}
