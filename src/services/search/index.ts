/**
 * Note search: literal (FTS5 trigram index) and semantic (embeddings compared with sqlite-vec),
 * the notebook index operations, and the hooks the note services call when note text changes.
 */

import { isAiConfigured } from "../../ai/client";
import type { AppContext } from "../../context";
import { NotePresenter, type NoteTopologyJson, shortDetailsFromHead, shortDetailsOf } from "../notes/presenters";
import type { CurrentUser } from "../users";
import { type IndexProgress, semanticIndexProgress } from "./index-progress";
import { DETAILS_HEAD_LENGTH, literalSearch, type NoteText, type SearchHit } from "./literal";
import { type SearchTerm, searchScope } from "./scope";
import { semanticSearch } from "./semantic";
import type { SemanticState } from "./semantic-signal";

export { embedNoteJob } from "./embed-job";
export { catchUpMissingEmbeddings, type IndexProgress } from "./index-progress";
export { resetNotebookIndex, updateNotebookIndex } from "./notebook-index";
export type { SearchTerm } from "./scope";
export { SEMANTIC_HEADER, SEMANTIC_PROGRESS_HEADER, type SemanticState } from "./semantic-signal";

/** NoteSearchResult in the API. */
export interface NoteSearchResultJson {
  noteTopology: NoteTopologyJson;
  distance: number;
}

/**
 * The hits as the API answers them, in their order, for the reader. Hits are related notes: the
 * policy was asked for them already, at this request, as the search's scope (the notebooks the
 * reader may read, from readableNotebookIds, matched against each note's notebook in the query),
 * so no hit is from a notebook the reader may not read, even one a note was just moved into.
 * Searches find no link notes, so a hit's topology is its id, title and short details: from the
 * text the search read along with the hit when it did (the head of the details, when their first
 * words read as written), else read by one cached statement (the search store's noteTexts); a link note, should one ever be a hit, is presented by
 * NotePresenter for the reader, with its subject and object as the policy allows.
 */
async function present(ctx: AppContext, reader: CurrentUser, hits: SearchHit[]): Promise<NoteSearchResultJson[]> {
  const shortDetails = hits.map((hit) => (hit.text ? shortDetailsOfText(hit.text) : undefined));
  const unread = hits.filter((_, i) => shortDetails[i] === undefined).map((hit) => hit.noteId);
  const rows = unread.length === 0 ? [] : await ctx.stores.search.noteTexts(unread);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const links = rows.filter((row) => row.isLink).map((row) => row.id);
  const linkTopologies = new Map<number, NoteTopologyJson>();
  if (links.length > 0) {
    const linkRows = await ctx.stores.notes.notesByIds(links);
    const presenter = await new NotePresenter(ctx, reader).load(linkRows);
    for (const row of linkRows) linkTopologies.set(row.id, presenter.topology(row));
  }
  return hits.flatMap((hit, i) => {
    const known = shortDetails[i];
    if (known !== undefined)
      return [{ noteTopology: { id: hit.noteId, titleOrPredicate: hit.text!.title, shortDetails: known }, distance: hit.distance }];
    const row = byId.get(hit.noteId);
    if (!row) return [];
    const noteTopology = row.isLink
      ? linkTopologies.get(hit.noteId)
      : { id: hit.noteId, titleOrPredicate: row.title, shortDetails: shortDetailsOf(row.details) };
    return noteTopology ? [{ noteTopology, distance: hit.distance }] : [];
  });
}

/** A hit's short details from the text the search read with it; undefined when only its whole details can tell. */
function shortDetailsOfText(text: NoteText): string | undefined {
  if (!text.detailsHead || text.details.length < DETAILS_HEAD_LENGTH) return shortDetailsOf(text.details);
  return shortDetailsFromHead(text.details);
}

/** Literal search (POST /notes/search, /notes/{note}/search). */
export async function searchNotes(
  ctx: AppContext,
  current: CurrentUser,
  term: SearchTerm,
  contextNoteId?: number,
): Promise<NoteSearchResultJson[]> {
  const scope = await searchScope(ctx, current, term, contextNoteId);
  return present(ctx, current, await literalSearch(ctx, scope, term.searchKey));
}

/**
 * Semantic search (POST /notes/semantic-search, /notes/{note}/semantic-search). Without an
 * embedding provider, or when it fails, answers the literal results and says so in `semantic`;
 * while some of the scope's notes wait for their first embedding, `progress` says how far it got.
 */
export async function semanticSearchNotes(
  ctx: AppContext,
  current: CurrentUser,
  term: SearchTerm,
  contextNoteId?: number,
): Promise<{ results: NoteSearchResultJson[]; semantic: SemanticState; progress?: IndexProgress }> {
  const scope = await searchScope(ctx, current, term, contextNoteId);
  if (!isAiConfigured(ctx))
    return { results: await present(ctx, current, await literalSearch(ctx, scope, term.searchKey)), semantic: "off" };
  try {
    const results = await present(ctx, current, await semanticSearch(ctx, scope, term.searchKey));
    const progress = await semanticIndexProgress(ctx, scope);
    return progress ? { results, semantic: "on", progress } : { results, semantic: "on" };
  } catch (error) {
    console.error("Semantic search failed; answering literal results:", error);
    return { results: await present(ctx, current, await literalSearch(ctx, scope, term.searchKey)), semantic: "failed" };
  }
}
