/**
 * What a note gets from its Wikidata entity: a description prepended to the details (a person's
 * country and birthday, a place's coordinates) and, on note creation only, sub-notes for a
 * person's country and a book's authors (a link "related to" when the notebook already has a
 * note for that entity).
 *
 * Two phases, so that no database transaction waits on the network: `prepareWikidataEnrichment`
 * makes every Wikidata call (and fails with 503 before anything is written), then the notes store
 * writes it in one unit of work (with the note's creation, or `applyWikidataEnrichment`).
 */
import type { AppContext } from "../../context";
import type { WikidataEnrichment } from "../../store/notes/notes-store";
import { noteTextSaved } from "../notes/note-changes";
import { requireNote } from "../notes/rows";
import { MAX_TITLE_LENGTH } from "../notes/validation";
import { authors, birthday, countryOfCitizenship, isHuman, locationDescription } from "./claims";
import { fetchClaims, fetchEntityData, type WikidataEntityData } from "./client";
import { findNoteWithWikidataId } from "./uniqueness";

export { prependDescription, RELATED_TO } from "../../store/notes/wikidata";
export type { WikidataEnrichment };

/** Sub-notes of sub-notes stop here (new note → author → author's country), bounding outbound calls. */
const MAX_SUB_NOTE_DEPTH = 2;

/** One preparation's calls: each entity's data is fetched once. */
class Fetcher {
  private readonly entityData = new Map<string, Promise<WikidataEntityData | undefined>>();
  constructor(readonly ctx: AppContext) {}

  async englishTitle(wikidataId: string): Promise<string> {
    if (!this.entityData.has(wikidataId)) this.entityData.set(wikidataId, fetchEntityData(this.ctx, wikidataId));
    return ((await this.entityData.get(wikidataId))?.WikidataTitleInEnglish ?? "").trim();
  }
}

async function prepare(
  fetcher: Fetcher,
  notebookId: number,
  wikidataId: string,
  depth: number,
  withSubNotes: boolean,
  seen: Set<string>,
): Promise<WikidataEnrichment> {
  seen.add(wikidataId);
  const claims = await fetchClaims(fetcher.ctx, wikidataId);
  const country = countryOfCitizenship(claims);
  let description = "";
  if (isHuman(claims)) {
    const parts = [country ? await fetcher.englishTitle(country) : "", birthday(claims) ?? ""];
    description = parts.filter((part) => part.trim() !== "").join(", ");
  } else {
    description = locationDescription(claims) ?? "";
  }
  const enrichment: WikidataEnrichment = { wikidataId, description, subNotes: [] };
  if (!withSubNotes) return enrichment;
  const related = [...new Set([...(country ? [country] : []), ...authors(claims)])].filter((id) => id !== wikidataId);
  for (const id of related) {
    const title = (await fetcher.englishTitle(id)).slice(0, MAX_TITLE_LENGTH);
    if (title === "") continue; // nothing to call the note
    const known = seen.has(id) || (await findNoteWithWikidataId(fetcher.ctx, notebookId, id)) !== undefined;
    const deeper = depth + 1 < MAX_SUB_NOTE_DEPTH;
    enrichment.subNotes.push({
      wikidataId: id,
      title,
      enrichment: known ? undefined : await prepare(fetcher, notebookId, id, depth + 1, deeper, seen),
    });
  }
  return enrichment;
}

/**
 * Fetches what a note with this Wikidata id in this notebook will get. `subNotes` is true on
 * note creation, false when associating an existing note. Throws ServiceUnavailableError
 * ("The wikidata service is not available") when Wikidata cannot be reached.
 */
export function prepareWikidataEnrichment(
  ctx: AppContext,
  notebookId: number,
  wikidataId: string,
  options: { subNotes: boolean },
): Promise<WikidataEnrichment> {
  return prepare(new Fetcher(ctx), notebookId, wikidataId, 0, options.subNotes, new Set());
}

/** Writes a prepared enrichment to the note, in one unit of work; its listeners hear of the notes whose text changed. */
export async function applyWikidataEnrichment(ctx: AppContext, noteId: number, enrichment: WikidataEnrichment): Promise<void> {
  for (const id of await ctx.stores.notes.applyEnrichment(noteId, enrichment, ctx.clock.now())) noteTextSaved(ctx, id);
}

/**
 * Prepares and applies in one call, for a note that already has its Wikidata id (with
 * sub-notes, as on creation). Note: when Wikidata is down this throws after the note exists;
 * creation code that must not leave a half-made note should prepare before inserting instead.
 */
export async function enrichNoteFromWikidata(ctx: AppContext, noteId: number): Promise<void> {
  const note = await requireNote(ctx, noteId);
  if (!note.wikidataId) return;
  const enrichment = await prepareWikidataEnrichment(ctx, note.notebookId, note.wikidataId, { subNotes: true });
  await applyWikidataEnrichment(ctx, noteId, enrichment);
}
