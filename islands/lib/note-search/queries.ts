import { queryOptions } from "@tanstack/react-query";
import { SEMANTIC_HEADER, type SemanticState } from "../../../src/services/search/semantic-signal";
import { api } from "../api";
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

/**
 * The semantic half: quiet on failure (the literal half still answers, and reports errors),
 * and reads whether the server searched semantically from the x-engram-semantic header.
 */
async function semanticResults(path: string, term: SearchTerm): Promise<{ results: NoteSearchResultJson[]; semantic: SemanticState }> {
  try {
    const response = await fetch(path, {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(term),
    });
    if (!response.ok) return { results: [], semantic: "failed" };
    const header = response.headers.get(SEMANTIC_HEADER);
    const semantic: SemanticState = header === "off" || header === "failed" ? header : "on";
    return { results: (await response.json()) as NoteSearchResultJson[], semantic };
  } catch {
    return { results: [], semantic: "failed" };
  }
}

/**
 * Literal and semantic search for a key, in parallel, merged (smaller distance per note, sorted
 * ascending). From a note (`noteId`) the note-scoped endpoints are used. Cached per key and scope.
 */
export const noteSearchQuery = (noteId: number | undefined, term: SearchTerm) =>
  queryOptions({
    queryKey: ["note-search", noteId ?? "global", term.searchKey, term.allMyNotebooksAndSubscriptions, term.allMyCircles],
    queryFn: async (): Promise<NoteSearchAnswer> => {
      const base = noteId === undefined ? "/api/notes" : `/api/notes/${noteId}`;
      const [literal, semantic] = await Promise.all([
        api.post<NoteSearchResultJson[]>(`${base}/search`, term),
        semanticResults(`${base}/semantic-search`, term),
      ]);
      return { results: mergeSearchResults(literal, semantic.results), semantic: semantic.semantic };
    },
    staleTime: 60_000,
  });
