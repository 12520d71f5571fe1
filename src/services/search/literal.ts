import type { AppContext } from "../../context";
import type { SearchHit, SearchScope } from "../../store/search/search-store";
import { stripControlCharacters } from "../text-input";

export {
  DETAILS_BAND,
  DETAILS_HEAD_LENGTH,
  DETAILS_RANKED_HERE,
  literalDistance,
  type NoteText,
  prefixUpperBound,
  relevance,
  SEARCH_LIMIT,
  type SearchHit,
  TITLE_BAND,
} from "../../store/search/literal-ranking";

/**
 * Finds notes whose title or details contain every word of the key (substrings, any case; control
 * characters and surrounding spaces ignored). Deleted notes and link notes are never found. At
 * most SEARCH_LIMIT hits, closest first (the search store's literal search).
 */
export async function literalSearch(ctx: AppContext, scope: SearchScope, searchKey: string): Promise<SearchHit[]> {
  const key = stripControlCharacters(searchKey).trim();
  if (!key || scope.notebookIds.length === 0) return [];
  return ctx.stores.search.literal(scope, key);
}
