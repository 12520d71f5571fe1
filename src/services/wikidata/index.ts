/**
 * Wikidata: search and entity data for the client, associating a note with an entity, and what
 * creating a note with a Wikidata id needs (the duplicate check and the enrichment).
 */
export { updateWikidataId } from "./association";
export { WIKIDATA_UNAVAILABLE, type WikidataEntityData, type WikidataSearchEntity } from "./client";
export {
  applyWikidataEnrichment,
  enrichNoteFromWikidata,
  prepareWikidataEnrichment,
  type WikidataEnrichment,
} from "./enrichment";
export { searchWikidataEntities, wikidataEntityData } from "./entities";
export { assertWikidataIdUnique, DUPLICATE_WIKIDATA_ID, findNoteWithWikidataId } from "./uniqueness";
