import { queryOptions } from "@tanstack/react-query";
import { SEMANTIC_HEADER, type SemanticState } from "../../../src/services/search/semantic-signal";
import { api, call } from "../api";
import { mergeSearchResults, type NoteSearchResultJson } from "./merge";

/** SearchTerm: the key and how wide to look. */
export interface SearchTerm {
  searchKey: string;
  allMyNotebooksAndSubscriptions: boolean;
  allMyCircles: boolean;
}

export interface NoteSearchAnswer {
  results: NoteSearchResultJson[];
  semantic: SemanticState;
}

/** The search endpoints, global or from a note. */
const searchApi = (noteId: number | undefined) => (noteId === undefined ? api.notes : api.notes({ note: noteId }));

/**
 * The semantic half: quiet on failure (the literal half still answers, and reports errors),
 * and reads whether the server searched semantically from the x-engram-semantic header.
 */
async function semanticResults(noteId: number | undefined, term: SearchTerm): Promise<NoteSearchAnswer> {
  const { data, response } = await searchApi(noteId)["semantic-search"].post(term);
  if (!response?.ok || !data) return { results: [], semantic: "failed" };
  const header = response.headers.get(SEMANTIC_HEADER);
  const semantic: SemanticState = header === "off" || header === "failed" ? header : "on";
  return { results: data, semantic };
}

/**
 * Literal and semantic search for a key, in parallel, merged (smaller distance per note, sorted
 * ascending). From a note (`noteId`) the note-scoped endpoints are used. Cached per key and scope.
 */
export const noteSearchQuery = (noteId: number | undefined, term: SearchTerm) =>
  queryOptions({
    queryKey: ["note-search", noteId ?? "global", term.searchKey, term.allMyNotebooksAndSubscriptions, term.allMyCircles],
    queryFn: async (): Promise<NoteSearchAnswer> => {
      const [literal, semantic] = await Promise.all([call(searchApi(noteId).search.post(term)), semanticResults(noteId, term)]);
      return { results: mergeSearchResults(literal, semantic.results), semantic: semantic.semantic };
    },
    staleTime: 60_000,
  });
