import { useQueryClient } from "@tanstack/react-query";
import { api, call } from "../lib/api";
import {
  type AssimilationCountJson,
  assimilatingQuery,
  assimilationCountQuery,
  noteInfoQuery,
  recentlyLearnedQuery,
  recentlyReviewedQuery,
  refreshRecallCounters,
} from "../lib/learning-queries";
import type { NoteJson } from "../lib/notes-queries";

/**
 * The two choices of the assimilation page. Keeping drops the note from the list at once (the
 * page advances), skipping waits for the list to reload; both then re-read the counters, and
 * the list, so the page and the Assimilate badge stay equal to what the server would offer.
 */
export function useAssimilation() {
  const queryClient = useQueryClient();
  const listKey = assimilatingQuery().queryKey;
  const countKey = assimilationCountQuery().queryKey;

  function afterAssimilating(noteId: number) {
    void queryClient.invalidateQueries({ queryKey: countKey });
    void queryClient.invalidateQueries({ queryKey: noteInfoQuery(noteId).queryKey });
    void queryClient.invalidateQueries({ queryKey: recentlyLearnedQuery().queryKey });
    void queryClient.invalidateQueries({ queryKey: recentlyReviewedQuery().queryKey });
    // A new tracker with the default intervals is due at once.
    refreshRecallCounters(queryClient);
  }

  /** "Keep for repetition": the note gets its memory tracker(s). */
  async function keep(noteId: number) {
    const trackers = await call(api.assimilation.post({ noteId, skipMemoryTracking: false }));
    const kept = trackers.filter((tracker) => !tracker.removedFromTracking).length;
    queryClient.setQueryData(listKey, (notes: NoteJson[] | undefined) => notes?.filter((note) => note.id !== noteId));
    queryClient.setQueryData(
      countKey,
      (count: AssimilationCountJson | undefined) =>
        count && {
          ...count,
          assimilatedCountOfTheDay: count.assimilatedCountOfTheDay + kept,
          totalUnassimilatedCount: Math.max(0, count.totalUnassimilatedCount - 1),
        },
    );
    afterAssimilating(noteId);
    // A note that remembers spelling counts twice towards the day: the server may now offer fewer.
    void queryClient.invalidateQueries({ queryKey: listKey });
  }

  /** "Skip repetition": a removed tracker keeps the note out of assimilation; the list reloads. */
  async function skip(noteId: number) {
    await call(api.assimilation.post({ noteId, skipMemoryTracking: true }));
    afterAssimilating(noteId);
    await queryClient.invalidateQueries({ queryKey: listKey });
    // Should the reload fail, the skipped note still leaves the page.
    queryClient.setQueryData(listKey, (notes: NoteJson[] | undefined) => notes?.filter((note) => note.id !== noteId));
  }

  /** After a failure or a recall-setting change that may reorder or shorten today's list. */
  const reloadList = () => queryClient.invalidateQueries({ queryKey: listKey });

  return { keep, skip, reloadList };
}
