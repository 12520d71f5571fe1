import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { NoteView } from "../lib/recall/NoteView";
import type { ItemHandlers } from "./item-handlers";
import { FAILED_TO_SUBMIT, isTrackerGone, markAsRepeated, memoryTrackerQuery, thinkingSince } from "./recall-api";

/** "Yes, I remember" waits this long, so the learner tries to recall before answering (spec 9). */
export const REMEMBER_DELAY_MS = 10_000;

/**
 * The simple review, when no question can be had: the note, "Yes, I remember" (enabled after
 * 10 s) and "No, I need more repetition" (at once). One answer per item.
 */
export function JustReview({ memoryTrackerId, onFinished, onGone }: { memoryTrackerId: number } & ItemHandlers) {
  const { data: tracker, isError } = useQuery(memoryTrackerQuery(memoryTrackerId));
  const [rememberEnabled, setRememberEnabled] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [failed, setFailed] = useState(false);
  const [shownAt] = useState(() => Date.now());

  useEffect(() => {
    const timer = setTimeout(() => setRememberEnabled(true), REMEMBER_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);

  async function review(successful: boolean) {
    if (submitting) return;
    setSubmitting(true);
    setFailed(false);
    try {
      await markAsRepeated(memoryTrackerId, successful, thinkingSince(shownAt));
      onFinished({ type: "review", note: tracker?.note, successful }, false);
    } catch (error) {
      if (isTrackerGone(error)) return onGone();
      setFailed(true);
      setSubmitting(false);
    }
  }

  return (
    <div className="just-review">
      {tracker ? <NoteView noteId={tracker.note.id} note={tracker.note} /> : !isError && <p className="muted">Loading...</p>}
      <div className="just-review-actions">
        <button
          type="button"
          className="button primary remember-button"
          disabled={!rememberEnabled || submitting}
          onClick={() => review(true)}
        >
          <span className={`remember-wait${rememberEnabled ? " done" : ""}`} aria-hidden="true" />
          Yes, I remember
        </button>
        <button type="button" className="button" disabled={submitting} onClick={() => review(false)}>
          No, I need more repetition
        </button>
      </div>
      {failed && (
        <p className="form-message" role="alert">
          {FAILED_TO_SUBMIT}
        </p>
      )}
    </div>
  );
}
