/**
 * The recall page's calls: the list to repeat, one question per memory tracker, and the answers.
 * Each answer carries its own idempotency key. When the server cannot be reached the page goes
 * on from the device's copy (./offline, loaded on first use): questions come from
 * it, and answers are judged from it and queued, with the same key, until the network is back.
 */
import { type QueryClient, queryOptions } from "@tanstack/react-query";
import { useSyncExternalStore } from "react";
import { ApiError, api, call } from "../lib/api";
import { menuBadgeQuery, timeZone } from "../lib/learning-queries";
import type { NoteJson } from "../lib/notes-queries";
import type { QuestionContestResult, RecallPromptJson } from "../lib/recall/recall-prompt-types";
import { alertPopup } from "../lib/ui-store";
import type { MemoryTrackerLite } from "./recall-session";
import type { TrackerQuestion } from "./tracker-question";

export const FAILED_TO_SUBMIT = "Failed to submit answer. Please try again.";
export const TRACKER_GONE = "This memory tracker doesn't exist any more or is being skipped now. Moving on to the next memory tracker...";

let offlineStarted = false;
const offlineStartListeners = new Set<() => void>();

/**
 * The offline part, fetched on first use: when the browser goes offline or a request finds no
 * network, when answers or reports wait on the device, or to keep a list with items to recall.
 */
export const offlineRecall = () => {
  if (!offlineStarted) {
    offlineStarted = true;
    for (const listener of offlineStartListeners) listener();
  }
  return import("./offline/offline-recall");
};

/** Whether the page has started the offline part (its status line shows from then on). */
export function useOfflineStarted(): boolean {
  return useSyncExternalStore(
    (listener) => {
      offlineStartListeners.add(listener);
      return () => offlineStartListeners.delete(listener);
    },
    () => offlineStarted,
    () => false,
  );
}

/** The server could not be reached (no network, or it is down): not an answer from it. */
export const isNetworkFailure = (error: unknown) => error instanceof ApiError && error.status === 0;

/** GET /api/recalls/recalling: due now (0) or up to 3, 7 or 14 days ahead. */
export const fetchRecalling = (dueInDays: number) =>
  call(api.recalls.recalling.get({ query: { timezone: timeZone(), dueindays: dueInDays } }), {
    silent: typeof navigator !== "undefined" && !navigator.onLine,
  });

export type { TrackerQuestion } from "./tracker-question";

/**
 * The question of one memory tracker, fetched once per page (prefetched ahead, quietly). Any
 * failure or an empty body gives null: a spelling tracker then shows its answer field without a
 * stem (spec 8: the failure is swallowed), any other tracker falls back to the simple review.
 * Without the network it comes from the device's copy (the query runs offline too).
 */
export const trackerQuestionQuery = (tracker: MemoryTrackerLite) =>
  queryOptions({
    queryKey: ["recall-question", tracker.memoryTrackerId, tracker.spelling],
    staleTime: Infinity,
    gcTime: Infinity,
    networkMode: "always",
    queryFn: async (): Promise<TrackerQuestion> => {
      const id = tracker.memoryTrackerId;
      try {
        if (tracker.spelling) {
          const question = await call(api["memory-trackers"]({ memoryTracker: id })["spelling-question"].get(), { silent: true });
          return { kind: "spelling", question: question ?? null };
        }
        const prompt = await call(api["recall-prompts"]({ recallPrompt: id }).question.get(), { silent: true });
        return { kind: "choice", prompt: prompt?.multipleChoicesQuestion ? prompt : null };
      } catch (error) {
        if (isNetworkFailure(error)) return (await offlineRecall()).offlineQuestion(id, tracker.spelling);
        return tracker.spelling ? { kind: "spelling", question: null } : { kind: "choice", prompt: null };
      }
    },
  });

/** GET /api/memory-trackers/{id}: the simple review shows the tracker's note (offline: from the device's copy). */
export const memoryTrackerQuery = (memoryTrackerId: number) =>
  queryOptions({
    queryKey: ["memory-tracker", memoryTrackerId],
    networkMode: "always",
    queryFn: async (): Promise<{ note: NoteJson }> => {
      try {
        return await call(api["memory-trackers"]({ memoryTracker: memoryTrackerId }).get(), { silent: true });
      } catch (error) {
        const note = isNetworkFailure(error) ? await (await offlineRecall()).offlineNote(memoryTrackerId) : undefined;
        if (note) return { note };
        throw error;
      }
    },
  });

/** Milliseconds since a question was shown (the recall log's thinking time). */
export const thinkingSince = (shownAt: number) => Math.min(Math.max(0, Math.round(Date.now() - shownAt)), 86_400_000);

/**
 * A random key naming one answer: 32 hex digits. Not crypto.randomUUID, which plain-HTTP pages
 * (an Engram reached by its LAN address) do not have; getRandomValues they do.
 */
export function newAnswerKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** An answer as given: its tracker, its own key, its moment and its thinking time. */
function given(memoryTrackerId: number, thinkingTimeMs?: number) {
  return { memoryTrackerId, idempotencyKey: newAnswerKey(), answeredAt: new Date(), thinkingTimeMs };
}

/**
 * Sends an answer; when the server cannot be reached, `offline` judges and queues it with the
 * same key (so an answer that did arrive, its reply lost, is not counted twice). Either way the
 * device notes its tracker as done.
 */
async function submit<T>(
  answer: ReturnType<typeof given>,
  online: (headers: Record<string, string>) => Promise<T>,
  offline: (module: Awaited<ReturnType<typeof offlineRecall>>) => Promise<T>,
): Promise<T> {
  try {
    const result = await online({ "idempotency-key": answer.idempotencyKey });
    void offlineRecall().then((module) => {
      module.setOffline(false);
      return module.rememberDone(answer.memoryTrackerId);
    });
    return result;
  } catch (error) {
    if (!isNetworkFailure(error)) throw error;
    return offline(await offlineRecall());
  }
}

// Submissions are silent: their failure is told on the spot, not in a toast.
export const answerQuestion = (memoryTrackerId: number, prompt: RecallPromptJson, choiceIndex: number, thinkingTimeMs?: number) => {
  const answer = given(memoryTrackerId, thinkingTimeMs);
  return submit(
    answer,
    (headers) =>
      call(api["recall-prompts"]({ recallPrompt: prompt.id }).answer.post({ choiceIndex, thinkingTimeMs }, { headers }), { silent: true }),
    (offline) => offline.answerQuestionOffline(answer, prompt, choiceIndex),
  );
};

export const answerSpelling = (memoryTrackerId: number, spellingAnswer: string, thinkingTimeMs?: number) => {
  const answer = given(memoryTrackerId, thinkingTimeMs);
  return submit(
    answer,
    (headers) =>
      call(
        api["memory-trackers"]({ memoryTracker: memoryTrackerId })["answer-spelling"].post({ spellingAnswer, thinkingTimeMs }, { headers }),
        { silent: true },
      ),
    (offline) => offline.answerSpellingOffline(answer, spellingAnswer),
  );
};

export const markAsRepeated = (memoryTrackerId: number, successful: boolean, thinkingTimeMs?: number) => {
  const answer = given(memoryTrackerId, thinkingTimeMs);
  return submit(
    answer,
    (headers) =>
      call(
        api["memory-trackers"]({ memoryTracker: memoryTrackerId })["mark-as-repeated"].patch(
          {},
          { headers, query: { successful: successful ? "true" : "false", thinkingTimeMs: thinkingTimeMs?.toString() } },
        ),
        { silent: true },
      ).then(() => undefined),
    (offline) => offline.markAsRepeatedOffline(answer, successful),
  );
};

export const contestQuestion = (recallPromptId: number) => call(api["recall-prompts"]({ recallPrompt: recallPromptId }).contest.post());

/** A new question after an accepted contest, or null when none could be made (empty body). */
export const regenerateQuestion = async (recallPromptId: number, contest: QuestionContestResult) =>
  (await call(api["recall-prompts"]({ recallPrompt: recallPromptId }).regenerate.post(contest))) ?? null;

/**
 * After a failed submission: a tracker that is gone (404) or not the learner's (403) is passed
 * over with the spec's alert; anything else can be tried again.
 */
export function isTrackerGone(error: unknown): boolean {
  const gone = error instanceof ApiError && (error.status === 404 || error.status === 403);
  if (gone) void alertPopup(TRACKER_GONE);
  return gone;
}

/** Today's list tells how many are left to repeat: the Recall menu badge shows it. */
export function setRecallBadge(queryClient: QueryClient, toRepeatCount: number) {
  queryClient.setQueryData(menuBadgeQuery("recall").queryKey, Math.max(0, toRepeatCount));
}
