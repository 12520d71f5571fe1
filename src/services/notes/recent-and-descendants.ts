import { and, desc, eq, isNull } from "drizzle-orm";
import type { AppContext } from "../../context";
import { notebooks, notes } from "../../db/schema";
import { bareNote, type GraphRAGResult, uriAndTitle } from "../graph/bare-note";
import { Neighbourhood } from "../graph/neighbourhood";
import { authorizeRead } from "../policies";
import type { CurrentUser } from "../users";
import { NotePresenter, type NoteRealmJson, presentNotebook } from "./presenters";
import { ancestorsOf, descendantIds, getNote, getNotebook, type NoteRow, notesByIds } from "./rows";

export const RECENT_NOTES_LIMIT = 100;

/**
 * The user's notes, most recently added or updated first (GET /notes/recent): notes of notebooks
 * they created and may still read (a creator who left a circle no longer reads its notebooks).
 */
export function recentNotes(ctx: AppContext, current: CurrentUser): NoteRealmJson[] {
  const rows = ctx.db
    .select({ note: notes, notebook: notebooks })
    .from(notes)
    .innerJoin(notebooks, eq(notes.notebookId, notebooks.id))
    .where(and(eq(notebooks.creatorId, current.user.id), isNull(notes.deletedAt)))
    .orderBy(desc(notes.updatedAt), desc(notes.id))
    .limit(RECENT_NOTES_LIMIT)
    .all();
  const presenter = new NotePresenter(ctx, current);
  const readable = rows.filter(({ notebook }) => presenter.readable.notebook(notebook.id));
  presenter.preload(readable.map((r) => r.note));
  const notebookJson = new Map<number, ReturnType<typeof presentNotebook>>();
  return readable.map(({ note, notebook }) => {
    if (!notebookJson.has(notebook.id)) notebookJson.set(notebook.id, presentNotebook(ctx, current, notebook));
    return { id: note.id, note: presenter.note(note), notebook: notebookJson.get(notebook.id) };
  });
}

/**
 * How many notes a delete of the note takes with it: its undeleted descendants, links left out
 * (GET /notes/{note}/descendant-count, an Engram addition, for the delete confirmation).
 */
export function descendantCount(ctx: AppContext, current: CurrentUser | undefined, noteId: number): { count: number } {
  const note = getNote(ctx, noteId);
  authorizeRead(ctx, current, getNotebook(ctx, note.notebookId));
  const row = ctx.sqlite
    .query<{ count: number }, [number]>(
      `WITH RECURSIVE descendant(id) AS (
         SELECT id FROM notes WHERE parent_id = ?1 AND deleted_at IS NULL
         UNION ALL
         SELECT n.id FROM notes n JOIN descendant ON n.parent_id = descendant.id WHERE n.deleted_at IS NULL
       ) SELECT count(*) AS count FROM descendant JOIN notes n ON n.id = descendant.id WHERE n.target_note_id IS NULL`,
    )
    .get(note.id)!;
  return { count: row.count };
}

/** The note and all its undeleted descendants, untruncated (GET /notes/{note}/descendants). */
export function noteDescendants(ctx: AppContext, current: CurrentUser | undefined, noteId: number): GraphRAGResult {
  const focus = getNote(ctx, noteId);
  authorizeRead(ctx, current, getNotebook(ctx, focus.notebookId));
  const descendants = notesByIds(ctx, descendantIds(ctx, focus.id)).filter((n) => !n.deletedAt);
  const ancestors = ancestorsOf(ctx, focus);
  // A link may reach into a notebook the reader may not read: bareNote leaves such a target out.
  const hood = new Neighbourhood(ctx, current);
  const targets = notesByIds(
    ctx,
    descendants.flatMap((n) => (n.targetNoteId !== null ? [n.targetNoteId] : [])),
  ).filter(hood.visible);
  const rows = new Map<number, NoteRow>([...ancestors, focus, ...descendants, ...targets].map((n) => [n.id, n]));
  const byId = { get: (id: number) => rows.get(id), visible: hood.visible };
  const children = descendants.filter((n) => n.parentId === focus.id);
  return {
    focusNote: {
      ...bareNote(focus, byId, "Self"),
      contextualPath: ancestors.map(uriAndTitle),
      children: children.map(uriAndTitle),
      priorSiblings: [],
      youngerSiblings: [],
      inboundReferences: [],
    },
    relatedNotes: descendants.map((n) => bareNote(n, byId, n.parentId === focus.id ? "Child" : undefined)),
  };
}
