/**
 * Wikidata: search and entity data for the client, associating a note with an entity, and what
 * creating a note with a Wikidata id needs (the duplicate check and the enrichment).
 */
export { updateWikidataId } from "./association";
export { searchWikidataEntities, wikidataEntityData } from "./entities";
export {
  applyWikidataEnrichment,
  enrichNoteFromWikidata,
  prepareWikidataEnrichment,
  type WikidataEnrichment,
} from "./enrichment";
export { assertWikidataIdUnique, DUPLICATE_WIKIDATA_ID, findNoteWithWikidataId } from "./uniqueness";
export { WIKIDATA_UNAVAILABLE, type WikidataEntityData, type WikidataSearchEntity } from "./client";
