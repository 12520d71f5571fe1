import { queryOptions } from "@tanstack/react-query";
import { api, call } from "./api";

export type { NotebooksJson } from "../../src/services/notebooks";
export type { ChildNoteJson, NotebookJson, NoteJson, NoteRealmJson, NoteTopologyJson } from "../../src/services/notes/presenters";

/**
 * Query options for notes and notebooks, shared by the server (which prefetches under the same
 * keys) and the islands.
 */
export const noteRealmQuery = (noteId: number) =>
  queryOptions({
    queryKey: ["note-realm", noteId],
    queryFn: () => call(api.notes({ note: noteId }).get(), { silent: true }),
  });

export const notebooksQuery = () =>
  queryOptions({
    queryKey: ["notebooks"],
    queryFn: () => call(api.notebooks.get()),
  });

export const recentNotesQuery = () =>
  queryOptions({
    queryKey: ["recent-notes"],
    queryFn: () => call(api.notes.recent.get()),
  });

/** The URL of a note's page. */
export const notePath = (noteId: number) => `/n${noteId}`;
