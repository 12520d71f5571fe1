import type { AppContext } from "../../context";
import { NotFoundError } from "../errors";
import { bareNote, type GraphRAGResult, uriAndTitle } from "../graph/bare-note";
import { Neighbourhood } from "../graph/neighbourhood";
import { authorizeRead, ReadableNotes } from "../policies";
import type { CurrentUser } from "../users";
import { NotePresenter, type NoteRealmJson, presentNotebooks } from "./presenters";
import { type NoteRow, requireNoteWithNotebook } from "./rows";

export const RECENT_NOTES_LIMIT = 100;

/**
 * The user's notes, most recently added or updated first (GET /notes/recent): notes of notebooks
 * they created and may still read (a creator who left a circle no longer reads its notebooks).
 */
export async function recentNotes(ctx: AppContext, current: CurrentUser): Promise<NoteRealmJson[]> {
  const rows = await ctx.stores.notes.recentNotesOfCreator(current.user.id, RECENT_NOTES_LIMIT);
  const presenter = await NotePresenter.of(ctx, current);
  const readable = rows.filter(({ notebook }) => presenter.readable.notebook(notebook.id));
  await presenter.load(readable.map((r) => r.note));
  const notebooks = [...new Map(readable.map(({ notebook }) => [notebook.id, notebook])).values()];
  const notebookJson = new Map((await presentNotebooks(ctx, current, notebooks)).map((json) => [json.id, json]));
  return readable.map(({ note, notebook }) => ({ id: note.id, note: presenter.note(note), notebook: notebookJson.get(notebook.id) }));
}

/**
 * How many notes a delete of the note takes with it: its undeleted descendants, links left out
 * (GET /notes/{note}/descendant-count, an Engram addition, for the delete confirmation).
 */
export async function descendantCount(ctx: AppContext, current: CurrentUser | undefined, noteId: number): Promise<{ count: number }> {
  const { note, notebook } = await requireNoteWithNotebook(ctx, noteId);
  await authorizeRead(ctx, current, notebook);
  return { count: await ctx.stores.notes.undeletedDescendantCount(note.id) };
}

/** The note and all its undeleted descendants, untruncated (GET /notes/{note}/descendants). */
export async function noteDescendants(ctx: AppContext, current: CurrentUser | undefined, noteId: number): Promise<GraphRAGResult> {
  const subtree = await ctx.stores.notes.subtreeRows(noteId);
  if (!subtree) throw new NotFoundError("Note");
  const { focus, notebook, ancestors, descendants } = subtree;
  await authorizeRead(ctx, current, notebook);
  // A link may reach into a notebook the reader may not read: bareNote leaves such a target out.
  const hood = new Neighbourhood(ctx, await ReadableNotes.of(ctx, current));
  const targets = subtree.targets.filter(hood.visible);
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
