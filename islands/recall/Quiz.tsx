import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { ContestableQuestion } from "./ContestableQuestion";
import type { ItemHandlers } from "./item-handlers";
import { JustReview } from "./JustReview";
import { offlineRecall, trackerQuestionQuery } from "./recall-api";
import type { MemoryTrackerLite } from "./recall-session";
import { SpellingQuestion } from "./SpellingQuestion";

/** Questions fetched ahead of the current one, so the next ones show at once (spec 9). */
export const EAGER_FETCH_COUNT = 5;

/**
 * Fetches the questions of the current item and the next ones, one after another (question
 * generation may call the AI: no burst of parallel calls). The cache keeps each tracker's
 * question for the page's lifetime, so each is fetched once.
 */
function usePrefetch(toRepeat: MemoryTrackerLite[], currentIndex: number) {
  const queryClient = useQueryClient();
  useEffect(() => {
    let cancelled = false;
    void (async () => {
      let generated = false;
      for (let i = currentIndex; i < Math.min(toRepeat.length, currentIndex + EAGER_FETCH_COUNT); i++) {
        if (cancelled) return;
        const query = trackerQuestionQuery(toRepeat[i]!);
        const known = queryClient.getQueryData(query.queryKey) !== undefined;
        await queryClient.prefetchQuery(query);
        const fetched = queryClient.getQueryData(query.queryKey);
        if (!known && fetched?.kind === "choice" && fetched.prompt) generated = true;
      }
      // New questions (the AI made them just now) go into the device's copy too, for offline.
      if (generated && !cancelled) void offlineRecall().then((offline) => offline.refreshPackAgain());
    })();
    return () => {
      cancelled = true;
    };
    // Runs again when the current tracker changes (answered, moved to the end, new list): each of
    // these is a new index or a new list (the session is immutable).
  }, [queryClient, currentIndex, toRepeat]);
}

/** The current item: a spelling question, a multiple-choice question, or the simple review. */
function CurrentItem({ tracker, ...handlers }: { tracker: MemoryTrackerLite } & ItemHandlers) {
  const { data, isPending } = useQuery(trackerQuestionQuery(tracker));
  if (isPending || !data)
    return (
      <p className="muted" role="status">
        Loading...
      </p>
    );
  if (data.kind === "needs-ai" || data.kind === "unavailable") return <SkippedOffline onSkip={handlers.onSkip} />;
  if (data.kind === "spelling") {
    return <SpellingQuestion memoryTrackerId={tracker.memoryTrackerId} question={data.question} {...handlers} />;
  }
  if (data.prompt) return <ContestableQuestion tracker={tracker} prompt={data.prompt} {...handlers} />;
  return <JustReview memoryTrackerId={tracker.memoryTrackerId} {...handlers} />;
}

/** Offline, an item without its question on the device is passed over at once (the status line counts it). */
function SkippedOffline({ onSkip }: { onSkip: () => void }) {
  useEffect(() => onSkip(), [onSkip]);
  return (
    <p className="muted" role="status">
      This question needs the network: skipped for now.
    </p>
  );
}

export function Quiz({
  toRepeat,
  currentIndex,
  onMoveToEnd,
  ...handlers
}: { toRepeat: MemoryTrackerLite[]; currentIndex: number; onMoveToEnd: () => void } & ItemHandlers) {
  usePrefetch(toRepeat, currentIndex);
  const tracker = toRepeat[currentIndex];
  if (!tracker) return null;
  return (
    // The focus comes here when recall goes on after a result (tabIndex -1: not a Tab stop).
    <section className="quiz" tabIndex={-1} aria-label="Current question">
      <CurrentItem key={`${tracker.memoryTrackerId}-${tracker.spelling}`} tracker={tracker} {...handlers} />
      {currentIndex < toRepeat.length - 1 && (
        <div className="quiz-footer">
          <button type="button" className="button small" onClick={onMoveToEnd}>
            Move to end of list
          </button>
        </div>
      )}
    </section>
  );
}
