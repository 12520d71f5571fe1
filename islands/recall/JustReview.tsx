import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useElementId } from "../lib/island-id";
import { NoteView } from "../lib/recall/NoteView";
import type { ItemHandlers } from "./item-handlers";
import { FAILED_TO_SUBMIT, isTrackerGone, markAsRepeated, memoryTrackerQuery, thinkingSince } from "./recall-api";

/** "Yes, I remember" waits this long after the note is shown, so the learner recalls before judging. */
export const REMEMBER_DELAY_MS = 10_000;

/** Whole seconds left until "Yes, I remember" may be chosen (0 once it may), ticking every second. */
function useSecondsUntil(deadline: number): number {
  const left = () => Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
  const [seconds, setSeconds] = useState(left);
  useEffect(() => {
    if (seconds === 0) return;
    // Wakes when the next whole second is reached.
    const timer = setTimeout(() => setSeconds(left()), (deadline - Date.now()) % 1000 || 1000);
    return () => clearTimeout(timer);
  });
  return seconds;
}

/**
 * The simple review, when no question can be had, as a flash card: first the note's title (with
 * its place in the notebook), then **Show answer** reveals its details, and only then the learner
 * judges. "Yes, I remember" can be chosen 10 s after the note appeared (a countdown says when and
 * why); "No, I need more repetition" at any time. One answer per item.
 */
export function JustReview({ memoryTrackerId, onFinished, onGone }: { memoryTrackerId: number } & ItemHandlers) {
  const { data: tracker, isError } = useQuery(memoryTrackerQuery(memoryTrackerId));
  const [shownAt] = useState(() => Date.now());
  const secondsLeft = useSecondsUntil(shownAt + REMEMBER_DELAY_MS);
  const [revealed, setRevealed] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [failed, setFailed] = useState(false);
  const answer = useRef<HTMLDivElement>(null);
  const countdownId = useElementId(`remember-countdown-${memoryTrackerId}`);

  useEffect(() => {
    if (revealed) answer.current?.focus();
  }, [revealed]);

  async function review(successful: boolean) {
    if (submitting) return;
    setSubmitting(true);
    setFailed(false);
    try {
      await markAsRepeated(memoryTrackerId, successful, thinkingSince(shownAt));
      onFinished({ type: "review", note: tracker?.note, successful });
    } catch (error) {
      if (isTrackerGone(error)) return onGone();
      setFailed(true);
      setSubmitting(false);
    }
  }

  const waiting = secondsLeft > 0;
  return (
    <div className="just-review">
      {tracker ? (
        <div ref={answer} tabIndex={-1} className="just-review-note">
          <NoteView noteId={tracker.note.id} note={tracker.note} detailsHidden={!revealed} />
        </div>
      ) : (
        !isError && <p className="muted">Loading...</p>
      )}
      {!revealed && <p className="just-review-hint">Try to recall this note, then show the answer.</p>}
      <div className="just-review-actions">
        {revealed ? (
          <button
            type="button"
            className="button primary remember-button"
            disabled={waiting || submitting}
            aria-describedby={waiting ? countdownId : undefined}
            onClick={() => review(true)}
          >
            <span className={`remember-wait${waiting ? "" : " done"}`} aria-hidden="true" />
            Yes, I remember
          </button>
        ) : (
          // biome-ignore lint/a11y/noAutofocus: the review's one next step, as Continue is after an answer
          <button type="button" className="button primary" autoFocus data-autofocus onClick={() => setRevealed(true)}>
            Show answer
          </button>
        )}
        <button type="button" className="button" disabled={submitting} onClick={() => review(false)}>
          No, I need more repetition
        </button>
      </div>
      {revealed && waiting && (
        <p id={countdownId} className="remember-countdown">
          <span className="remember-countdown-seconds">{secondsLeft} s</span> until “Yes, I remember”: a moment to be sure you recalled it,
          not just recognised it.
        </p>
      )}
      {failed && (
        <p className="form-message" role="alert">
          {FAILED_TO_SUBMIT}
        </p>
      )}
    </div>
  );
}
