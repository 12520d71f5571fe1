import type { AppContext } from "../../context";
import { NotFoundError, ValidationError } from "../errors";
import { validWikidataId } from "../notes/validation";
import { fetchEntityData, searchWikidata, type WikidataEntityData, type WikidataSearchEntity } from "./client";

/** Longest search text passed on to Wikidata (its own limit is far above any title). */
const MAX_SEARCH_LENGTH = 250;

/** Knowledge-base search suggestions for a title being typed; a blank search finds nothing. */
export async function searchWikidataEntities(ctx: AppContext, search: string): Promise<WikidataSearchEntity[]> {
  const text = search.trim().slice(0, MAX_SEARCH_LENGTH);
  if (text === "") return [];
  return searchWikidata(ctx, text);
}

/** The English title and Wikipedia link of an entity; 400 for an id not like Q123, 404 when Wikidata has no such entity. */
export async function wikidataEntityData(ctx: AppContext, wikidataId: string): Promise<WikidataEntityData> {
  const valid = validWikidataId(wikidataId);
  if (valid === null) throw new ValidationError({ wikidataId: "The wikidata Id should be Q<numbers>" });
  const data = await fetchEntityData(ctx, valid);
  if (!data) throw new NotFoundError("Wikidata entity");
  return data;
}
