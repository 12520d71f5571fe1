import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { noteRealmQuery } from "../lib/notes-queries";

interface Revisions {
  titleRevision: number;
  detailsRevision: number;
}

/**
 * Listens while the note is open (server-sent events, GET /api/notes/:note/changes) and fetches
 * the note again whenever someone saves a newer title or details: the editors then show it,
 * merged with what is being typed here (use-autosave.ts). The browser reconnects by itself
 * after a network loss, and the first event then catches up. A reader who loses access is told
 * "closed", and the page stops listening.
 */
export function useNoteChanges(noteId: number, known: Revisions | undefined) {
  const queryClient = useQueryClient();
  const knownRef = useRef(known);
  knownRef.current = known;
  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    const source = new EventSource(`/api/notes/${noteId}/changes`);
    source.addEventListener("revisions", (event) => {
      const now = JSON.parse((event as MessageEvent<string>).data) as Revisions;
      const was = knownRef.current;
      if (!was || now.titleRevision > was.titleRevision || now.detailsRevision > was.detailsRevision)
        void queryClient.invalidateQueries({ queryKey: noteRealmQuery(noteId).queryKey });
    });
    source.addEventListener("closed", () => source.close());
    return () => source.close();
  }, [noteId, queryClient]);
}
