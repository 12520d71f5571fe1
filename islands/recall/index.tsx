import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useCallback, useEffect, useRef, useState } from "react";
import { NothingYet } from "../lib/getting-started";
import { lazyComponent } from "../lib/lazy";
import { decrementRecallBadge, menuBadgeQuery } from "../lib/learning-queries";
import { hasWaitingAnswers } from "../lib/offline/waiting-flag";
import { pageConfig } from "../lib/page-config";
import { currentUserInfoQuery } from "../lib/queries";
import { RecallProgress } from "./RecallProgress";
import { fetchRecalling, isNetworkFailure, offlineRecall, setRecallBadge, useOfflineStarted } from "./recall-api";
import {
  emptySession,
  isWindowOver,
  loadSession,
  movedToEnd,
  type RecallResult,
  type RecallSession,
  remainingCount,
  saveSession,
  withFinished,
  withLoadedList,
  withSkipped,
} from "./recall-session";
import { useOfflineRecall } from "./use-offline-recall";

/*
 * The question, spelling and review views (with the Markdown renderer) are fetched once there is
 * something to recall, not with the page: the page shows nothing of them on the server or before
 * the list has arrived in the browser.
 */
const loading = (
  <p className="muted" role="status">
    Loading...
  </p>
);
const Quiz = lazyComponent(() => import("./Quiz").then((m) => m.Quiz), loading);
const PreviousResult = lazyComponent(() => import("./PreviousResult").then((m) => m.PreviousResult), loading);
/** The offline status line comes with the offline part, once the page has started it (on use). */
const OfflineStatus = lazyComponent(() => import("./offline/OfflineStatus").then((m) => m.OfflineStatus));

/** "Load more from next N days" (spec 9: the first list is for today, 0). */
const LOOK_AHEAD_DAYS = [3, 7, 14] as const;

/** How long a right answer's "Correct!" shows before the next item comes by itself (Continue comes at once). */
export const CONFIRMATION_MS = 1500;

const isCorrect = (result: RecallResult) =>
  (result.type === "question" && result.answeredQuestion.answer.correct) ||
  (result.type === "spelling" && !!result.spellingResult.isCorrect);

/**
 * After a right answer its result shows for a moment, then recall goes on by itself, unless the
 * learner has moved elsewhere meanwhile (browsed to another result, or continued already).
 * `answered()` is called after each answer, so two right answers in a row each get their time.
 */
function useAutoContinue(setSession: (update: (s: RecallSession | undefined) => RecallSession | undefined) => void) {
  const [answers, setAnswers] = useState(0);
  useEffect(() => {
    if (answers === 0) return;
    const timer = setTimeout(
      () =>
        setSession((s) => {
          const last = s?.previousResults.length ? s.previousResults.length - 1 : -1;
          return s && s.resultCursor === last && isCorrect(s.previousResults[last]!) ? { ...s, resultCursor: null } : s;
        }),
      CONFIRMATION_MS,
    );
    return () => clearTimeout(timer);
  }, [answers, setSession]);
  return useCallback(() => setAnswers((n) => n + 1), []);
}

/** Online, after a list loaded: the device keeps a copy of it with its questions, for recall offline (quietly). */
function keepOnDevice(owner: string, lookAheadDays: number) {
  void offlineRecall()
    .then(async (offline) => {
      await offline.startOfflineRecall(owner);
      offline.setOffline(false);
      return offline.refreshPack(lookAheadDays);
    })
    .catch(() => {
      // Not kept this time: the last copy stays, and the next load tries again.
    });
}

/** Back to recalling: the current item gets the focus (its answer field, "Show answer", or the question). */
function focusCurrentItem(quiz: HTMLElement | null) {
  const target = quiz?.querySelector<HTMLElement>("[data-autofocus]:not(:disabled)") ?? quiz?.querySelector<HTMLElement>(".quiz");
  target?.focus();
}

/**
 * The recall page: the notes due in this half-day, one question (or simple review) at a time.
 * The session lives in sessionStorage, so leaving and coming back resumes it, unless the recall
 * window has ended meanwhile (then the list is loaded again; the results stay).
 */
export default function Recall() {
  const queryClient = useQueryClient();
  const { data: info } = useQuery(currentUserInfoQuery());
  const owner = String(info?.user?.id ?? info?.externalIdentifier ?? "");
  // Nothing on the server and in the first client render: the session is in the browser.
  const [session, setSession] = useState<RecallSession>();
  const [loadingDays, setLoadingDays] = useState<number>();
  const [loadFailed, setLoadFailed] = useState(false);
  const autoContinue = useAutoContinue(setSession);
  const quiz = useRef<HTMLDivElement>(null);

  const loadList = useCallback(
    async (dueInDays: number, base: RecallSession) => {
      setLoadingDays(dueInDays);
      setLoadFailed(false);
      try {
        const due = await fetchRecalling(dueInDays);
        // Only today's list says how many are left today; looking ahead leaves the badge alone.
        if (dueInDays === 0) setRecallBadge(queryClient, due.toRepeatCount);
        setSession(withLoadedList(base, due, pageConfig().mode === "production"));
        // An empty list leaves nothing to carry offline: the offline part is not fetched for it.
        if (due.toRepeat.length > 0) keepOnDevice(owner, dueInDays);
      } catch (error) {
        // Without the network the device's copy of the list takes over, when there is one.
        const offline = isNetworkFailure(error) ? await offlineRecall() : undefined;
        await offline?.startOfflineRecall(owner);
        offline?.setOffline(true);
        const kept = offline && (await offline.offlineSession(base));
        if (kept) setSession(kept);
        // Otherwise the API client has told what went wrong; a first load can be tried again.
        else setLoadFailed(true);
      } finally {
        setLoadingDays(undefined);
      }
    },
    [queryClient, owner],
  );

  useOfflineRecall(owner);
  useEffect(() => {
    let cancelled = false;
    void (async () => {
      // Answers given offline go to the server before the list is asked, so they are not asked again.
      if (hasWaitingAnswers(owner) && navigator.onLine) await (await offlineRecall()).startOfflineRecall(owner);
      if (cancelled) return;
      const stored = loadSession(owner);
      // Pages are separate loads here, so a finished list is also loaded again when the server
      // (the badge it prefetched) says more are due now, e.g. notes assimilated meanwhile.
      const moreDue = (queryClient.getQueryData(menuBadgeQuery("recall").queryKey) ?? 0) > 0;
      if (stored && !isWindowOver(stored, Date.now()) && !(remainingCount(stored) === 0 && moreDue)) {
        setSession(stored);
        if (navigator.onLine && remainingCount(stored) > 0) keepOnDevice(owner, stored.lookAheadDays ?? 0);
      } else void loadList(0, stored ?? emptySession());
    })();
    return () => {
      cancelled = true;
    };
  }, [owner, loadList, queryClient]);

  useEffect(() => {
    if (session) saveSession(owner, session);
  }, [owner, session]);

  // A question's or a spelling's result shows with Continue (a right one goes on by itself after
  // a moment); a self-review was judged with its answer in view, so the next item comes at once.
  const onFinished = useCallback(
    (result: RecallResult) => {
      const pause = result.type !== "review";
      setSession((s) => s && withFinished(s, result, pause));
      decrementRecallBadge(queryClient);
      if (pause && isCorrect(result)) autoContinue();
    },
    [queryClient, autoContinue],
  );

  // Back from a result to recalling: the current item takes the focus from Continue.
  const paused = session?.resultCursor != null && session.previousResults[session.resultCursor] !== undefined;
  const wasPaused = useRef(paused);
  useEffect(() => {
    if (wasPaused.current && !paused) focusCurrentItem(quiz.current);
    wasPaused.current = paused;
  }, [paused]);

  const onSkip = useCallback(() => {
    setSession((s) => s && withSkipped(s));
    void offlineRecall().then((offline) => offline.noteSkipped());
  }, []);

  const onGone = useCallback(() => {
    setSession((s) => s && withSkipped(s));
    decrementRecallBadge(queryClient);
  }, [queryClient]);

  if (!session) {
    return (
      <RecallFrame>
        {loadFailed ? (
          <p className="empty-state">
            The notes to recall could not be loaded.{" "}
            <button type="button" className="button" onClick={() => loadList(0, loadSession(owner) ?? emptySession())}>
              Try again
            </button>
          </p>
        ) : (
          <p className="muted" role="status">
            Loading...
          </p>
        )}
      </RecallFrame>
    );
  }

  const finished = session.previousResults.length;
  const toRepeat = remainingCount(session);
  const cursor = session.resultCursor;
  // No memory tracker at all (a new account): say what Recall is for, not that repetitions are finished.
  if (toRepeat === 0 && finished === 0 && session.totalAssimilatedCount === 0) {
    return (
      <RecallFrame>
        <NothingYet heading="Nothing to recall yet">
          <p>
            Recall brings back the notes you have learned, each just before you would forget it: as a question, a spelling test or a quick
            review. A note comes here once you keep it on the <a href="/d/assimilate">Assimilate page</a>.
          </p>
          <p>Start with a notebook and add some notes to it.</p>
        </NothingYet>
      </RecallFrame>
    );
  }
  return (
    <RecallFrame>
      <RecallProgress
        finished={finished}
        toRepeat={toRepeat}
        totalAssimilated={session.totalAssimilatedCount}
        cursor={paused ? cursor : null}
        onCursor={(c) => setSession((s) => s && { ...s, resultCursor: c })}
      />
      {paused && (
        <PreviousResult
          result={session.previousResults[cursor ?? 0]!}
          onContinue={() => setSession((s) => s && { ...s, resultCursor: null })}
        />
      )}
      {/* Hidden, not unmounted, while a result is shown: a half-typed answer stays. */}
      <div hidden={paused} ref={quiz}>
        {toRepeat > 0 ? (
          <Quiz
            toRepeat={session.toRepeat}
            currentIndex={session.currentIndex}
            onFinished={onFinished}
            onGone={onGone}
            onSkip={onSkip}
            onMoveToEnd={() => setSession((s) => s && movedToEnd(s))}
          />
        ) : (
          <div className="recall-done">
            <p className="recall-done-message">You have finished all repetitions for this half a day!</p>
            <div className="recall-load-more">
              {LOOK_AHEAD_DAYS.map((days) => (
                <button
                  key={days}
                  type="button"
                  className="button"
                  disabled={loadingDays !== undefined}
                  onClick={() => loadList(days, session)}
                >
                  Load more from next {days} days
                </button>
              ))}
            </div>
          </div>
        )}
      </div>
    </RecallFrame>
  );
}

function RecallFrame({ children }: { children: ReactNode }) {
  // Only in the browser, after hydration (the server renders nothing of the session either).
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const offlineStarted = useOfflineStarted();
  return (
    <div className="recall-page">
      <h1 className="visually-hidden">Recall</h1>
      {hydrated && offlineStarted && <OfflineStatus />}
      {children}
    </div>
  );
}
