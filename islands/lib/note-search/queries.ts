import { queryOptions } from "@tanstack/react-query";
import { SEMANTIC_HEADER, SEMANTIC_PROGRESS_HEADER, type SemanticState } from "../../../src/services/search/semantic-signal";
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
  /** While the semantic index is being built: how many of the searched notes are in it. */
  progress?: { embedded: number; total: number };
}

/** "12/40" → { embedded: 12, total: 40 }. */
function parseProgress(header: string | null): NoteSearchAnswer["progress"] {
  const match = /^(\d+)\/(\d+)$/.exec(header ?? "");
  return match ? { embedded: Number(match[1]), total: Number(match[2]) } : undefined;
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
  const progress = semantic === "on" ? parseProgress(response.headers.get(SEMANTIC_PROGRESS_HEADER)) : undefined;
  return { results: data, semantic, ...(progress ? { progress } : {}) };
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
      return { ...semantic, results: mergeSearchResults(literal, semantic.results) };
    },
    staleTime: 60_000,
  });
