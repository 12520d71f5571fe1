import { queryOptions } from "@tanstack/react-query";
import type { NotebooksJson } from "../../src/services/notebooks";
import type { NoteRealmJson } from "../../src/services/notes/presenters";
import { api } from "./api";

export type { NotebooksJson } from "../../src/services/notebooks";
export type { ChildNoteJson, NotebookJson, NoteJson, NoteRealmJson, NoteTopologyJson } from "../../src/services/notes/presenters";

/**
 * Query options for notes and notebooks, shared by the server (which prefetches under the same
 * keys) and the islands.
 */
export const noteRealmQuery = (noteId: number) =>
  queryOptions({
    queryKey: ["note-realm", noteId],
    queryFn: () => api.get<NoteRealmJson>(`/api/notes/${noteId}`, { silent: true }),
  });

export const notebooksQuery = () =>
  queryOptions({
    queryKey: ["notebooks"],
    queryFn: () => api.get<NotebooksJson>("/api/notebooks"),
  });

export const recentNotesQuery = () =>
  queryOptions({
    queryKey: ["recent-notes"],
    queryFn: () => api.get<NoteRealmJson[]>("/api/notes/recent"),
  });

/** The URL of a note's page. */
export const notePath = (noteId: number) => `/n${noteId}`;
