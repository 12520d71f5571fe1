/** The recall page's calls: the list to repeat, one question per memory tracker, and the answers. */
import { type QueryClient, queryOptions } from "@tanstack/react-query";
import { ApiError, api } from "../lib/api";
import { type MemoryTrackerJson, menuBadgeQuery, timeZone } from "../lib/learning-queries";
import type {
  AnsweredQuestionJson,
  QuestionContestResult,
  RecallPromptJson,
  SpellingQuestionJson,
  SpellingResultJson,
} from "../lib/recall/recall-prompt-types";
import { alertPopup } from "../lib/ui-store";
import type { DueMemoryTrackersJson, MemoryTrackerLite } from "./recall-session";

export const FAILED_TO_SUBMIT = "Failed to submit answer. Please try again.";
export const TRACKER_GONE = "This memory tracker doesn't exist any more or is being skipped now. Moving on to the next memory tracker...";

/** GET /api/recalls/recalling: due now (0) or up to 3, 7 or 14 days ahead. */
export const fetchRecalling = (dueInDays: number) =>
  api.get<DueMemoryTrackersJson>(`/api/recalls/recalling?timezone=${encodeURIComponent(timeZone())}&dueindays=${dueInDays}`);

export type TrackerQuestion =
  | { kind: "spelling"; question: SpellingQuestionJson | null }
  | { kind: "choice"; prompt: RecallPromptJson | null };

/**
 * The question of one memory tracker, fetched once per page (prefetched ahead, quietly). Any
 * failure or an empty body gives null: a spelling tracker then shows its answer field without a
 * stem (spec 8: the failure is swallowed), any other tracker falls back to the simple review.
 */
export const trackerQuestionQuery = (tracker: MemoryTrackerLite) =>
  queryOptions({
    queryKey: ["recall-question", tracker.memoryTrackerId, tracker.spelling],
    staleTime: Infinity,
    gcTime: Infinity,
    queryFn: async (): Promise<TrackerQuestion> => {
      const id = tracker.memoryTrackerId;
      if (tracker.spelling) {
        const question = await api
          .get<SpellingQuestionJson | undefined>(`/api/memory-trackers/${id}/spelling-question`, { silent: true })
          .catch(() => undefined);
        return { kind: "spelling", question: question ?? null };
      }
      const prompt = await api
        .get<RecallPromptJson | undefined>(`/api/recall-prompts/${id}/question`, { silent: true })
        .catch(() => undefined);
      return { kind: "choice", prompt: prompt?.multipleChoicesQuestion ? prompt : null };
    },
  });

/** GET /api/memory-trackers/{id}: the simple review shows the tracker's note. */
export const memoryTrackerQuery = (memoryTrackerId: number) =>
  queryOptions({
    queryKey: ["memory-tracker", memoryTrackerId],
    queryFn: () => api.get<MemoryTrackerJson>(`/api/memory-trackers/${memoryTrackerId}`, { silent: true }),
  });

/** Milliseconds since a question was shown (the recall log's thinking time, issue 17). */
export const thinkingSince = (shownAt: number) => Math.min(Math.max(0, Math.round(Date.now() - shownAt)), 86_400_000);

// Submissions are silent: their failure is told on the spot, not in a toast.
export const answerQuestion = (recallPromptId: number, choiceIndex: number, thinkingTimeMs?: number) =>
  api.post<AnsweredQuestionJson>(`/api/recall-prompts/${recallPromptId}/answer`, { choiceIndex, thinkingTimeMs }, { silent: true });

export const answerSpelling = (memoryTrackerId: number, spellingAnswer: string, thinkingTimeMs?: number) =>
  api.post<SpellingResultJson>(
    `/api/memory-trackers/${memoryTrackerId}/answer-spelling`,
    { spellingAnswer, thinkingTimeMs },
    { silent: true },
  );

export const markAsRepeated = (memoryTrackerId: number, successful: boolean, thinkingTimeMs?: number) =>
  api.patch<unknown>(
    `/api/memory-trackers/${memoryTrackerId}/mark-as-repeated?successful=${successful}${thinkingTimeMs === undefined ? "" : `&thinkingTimeMs=${thinkingTimeMs}`}`,
    undefined,
    { silent: true },
  );

export const contestQuestion = (recallPromptId: number) => api.post<QuestionContestResult>(`/api/recall-prompts/${recallPromptId}/contest`);

/** A new question after an accepted contest, or null when none could be made (empty body). */
export const regenerateQuestion = async (recallPromptId: number, contest: QuestionContestResult) =>
  (await api.post<RecallPromptJson | undefined>(`/api/recall-prompts/${recallPromptId}/regenerate`, contest)) ?? null;

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
