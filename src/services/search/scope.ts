import type { AppContext } from "../../context";
import { authorizeRead } from "../notes/access";
import { getNote, getNotebook } from "../notes/rows";
import type { CurrentUser } from "../users";

/** The search request (SearchTerm in the API). */
export interface SearchTerm {
  searchKey: string;
  allMyNotebooksAndSubscriptions?: boolean;
  allMyCircles?: boolean;
}

/** Where a search looks: these notebooks' undeleted notes, never the excluded note. */
export interface SearchScope {
  notebookIds: number[];
  excludeNoteId?: number;
}

/**
 * The notebooks whose notes a user may find by search. For now: the user's own notebooks
 * (subscriptions, and with allMyCircles the circles' notebooks, join as those features land).
 */
function readableNotebookIds(ctx: AppContext, current: CurrentUser, _term: SearchTerm): number[] {
  return ctx.sqlite
    .query<{ id: number }, [number]>("SELECT id FROM notebooks WHERE creator_id = ? ORDER BY id")
    .all(current.user.id)
    .map((row) => row.id);
}

/**
 * The scope of a search. The global search covers every notebook the user may read. A note's
 * link search needs read access to the note, leaves the note itself out, and without
 * allMyNotebooksAndSubscriptions (or allMyCircles, which implies it) stays in the note's notebook.
 */
export function searchScope(ctx: AppContext, current: CurrentUser, term: SearchTerm, contextNoteId?: number): SearchScope {
  if (contextNoteId === undefined) return { notebookIds: readableNotebookIds(ctx, current, term) };
  const note = getNote(ctx, contextNoteId);
  const notebook = getNotebook(ctx, note.notebookId);
  authorizeRead(ctx, current, notebook);
  const wide = Boolean(term.allMyNotebooksAndSubscriptions || term.allMyCircles);
  return { notebookIds: wide ? readableNotebookIds(ctx, current, term) : [notebook.id], excludeNoteId: note.id };
}
