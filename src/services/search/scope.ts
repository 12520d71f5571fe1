import type { AppContext } from "../../context";
import type { SearchScope } from "../../store/search/search-store";
import { requireNoteWithNotebook } from "../notes/rows";
import { authorizeRead, readableNotebookIds } from "../policies";
import type { CurrentUser } from "../users";

/** The search request (SearchTerm in the API). */
export interface SearchTerm {
  searchKey: string;
  allMyNotebooksAndSubscriptions?: boolean;
  allMyCircles?: boolean;
}

export type { SearchScope } from "../../store/search/search-store";

/**
 * The notebooks whose notes a search covers: the global search every notebook the user learns
 * from (own, subscribed, circles); a note's search with allMyNotebooksAndSubscriptions the own and
 * subscribed ones, and with allMyCircles the circles' notebooks too.
 */
async function readableNotebooks(ctx: AppContext, current: CurrentUser, term: SearchTerm, global: boolean): Promise<readonly number[]> {
  const circles = global || Boolean(term.allMyCircles);
  return readableNotebookIds(ctx, current.user.id, { own: true, subscriptions: true, circles });
}

/**
 * The scope of a search. The global search covers every notebook the user may read. A note's
 * link search needs read access to the note, leaves the note itself out, and without
 * allMyNotebooksAndSubscriptions (or allMyCircles, which implies it) stays in the note's notebook.
 */
export async function searchScope(ctx: AppContext, current: CurrentUser, term: SearchTerm, contextNoteId?: number): Promise<SearchScope> {
  if (contextNoteId === undefined) return { notebookIds: await readableNotebooks(ctx, current, term, true) };
  const { note, notebook } = await requireNoteWithNotebook(ctx, contextNoteId);
  await authorizeRead(ctx, current, notebook);
  const wide = Boolean(term.allMyNotebooksAndSubscriptions || term.allMyCircles);
  return { notebookIds: wide ? await readableNotebooks(ctx, current, term, false) : [notebook.id], excludeNoteId: note.id };
}
