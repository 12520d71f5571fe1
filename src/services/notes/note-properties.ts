/**
 * A note's properties: the front matter at the top of its details (`---` lines), as an Obsidian
 * or Anki import keeps it. They stay in the details, so that every export writes them back as
 * front matter exactly as they came; the note page shows them as a properties block, never as
 * the first lines of the text, and its editors edit only the text after them (`withBody`), so an
 * edit neither loses nor duplicates them. Pure functions, shared by the server and the islands.
 */
import { type FrontMatterEntry, splitDetails } from "../vaults/markdown-file";

export interface DetailsParts {
  properties: FrontMatterEntry[];
  /** The front matter block as written, with the blank line after it ("" when there is none). */
  prefix: string;
  /** The text after it. */
  body: string;
}

export function detailsParts(details: string): DetailsParts {
  const { entries, rest } = splitDetails(details);
  if (entries.length === 0 && rest === details) return { properties: [], prefix: "", body: details };
  return { properties: entries, prefix: details.slice(0, details.length - rest.length), body: rest };
}

/** The details' text without their properties. */
export const detailsBody = (details: string) => detailsParts(details).body;

/** The details with their text replaced by `body`, their properties kept exactly. */
export const withBody = (details: string, body: string) => detailsParts(details).prefix + body;
