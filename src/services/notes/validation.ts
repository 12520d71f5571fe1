import { ValidationError } from "../errors";
import { stripControlCharacters } from "../text-input";

export const MAX_TITLE_LENGTH = 150;
export const MAX_DETAILS_LENGTH = 200_000;
const TITLE_SIZE_MESSAGE = `size must be between 1 and ${MAX_TITLE_LENGTH}`;

/**
 * A title is 1 to 150 characters and not blank once control characters are removed; answers it
 * without them (not trimmed).
 */
export function validTitle(typed: string, field = "newTitle"): string {
  const title = stripControlCharacters(typed);
  if (title.trim().length === 0 || title.length > MAX_TITLE_LENGTH) throw new ValidationError({ [field]: TITLE_SIZE_MESSAGE });
  return title;
}

export function validDetails(typed: string): string {
  const details = stripControlCharacters(typed);
  if (details.length > MAX_DETAILS_LENGTH) {
    throw new ValidationError({ details: `size must be at most ${MAX_DETAILS_LENGTH}` });
  }
  return details;
}

/** An optional Wikidata id: empty, or Q followed by digits. */
export function validWikidataId(wikidataId: string | undefined | null): string | null {
  const trimmed = wikidataId?.trim() ?? "";
  if (trimmed === "") return null;
  if (!/^Q\d+$/.test(trimmed)) throw new ValidationError({ wikidataId: "The wikidata Id should be Q<numbers>" });
  return trimmed;
}
