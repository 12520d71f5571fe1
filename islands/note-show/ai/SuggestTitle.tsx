import { useRef, useState } from "react";
import { api, call } from "../../lib/api";
import { lazyComponent } from "../../lib/lazy";

const SuggestedTitleDialog = lazyComponent(() => import("./SuggestedTitleDialog").then((m) => m.SuggestedTitleDialog));

/** A sparkle, the usual sign of an AI action (drawn like islands/lib/icons). */
const SparkleIcon = () => (
  <svg
    viewBox="0 0 24 24"
    width="20"
    height="20"
    fill="none"
    stroke="currentColor"
    strokeWidth="2"
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden="true"
    focusable="false"
  >
    <path d="M12 3l2 5 5 2-5 2-2 5-2-5-5-2 5-2z" />
    <path d="M19 15l1 2 2 1-2 1-1 2-1-2-2-1 2-1z" />
  </svg>
);

/**
 * "Suggest title" on the note toolbar: asks the AI (POST /api/ai/suggest-title/{note}) and shows
 * its suggestion; Accept hands it to the title's autosave, so it is saved and undone like typing.
 * A failure (e.g. "AI is not configured") is told by the API's toast.
 */
export function SuggestTitleButton({
  noteId,
  currentTitle,
  onAccept,
}: {
  noteId: number;
  currentTitle: string;
  onAccept: (title: string) => void;
}) {
  const [busy, setBusy] = useState(false);
  const inFlight = useRef(false);
  const [suggestion, setSuggestion] = useState<{ title: string | null }>();

  async function suggest() {
    if (inFlight.current) return;
    inFlight.current = true;
    setBusy(true);
    try {
      setSuggestion(await call(api.ai["suggest-title"]({ note: noteId }).post()));
    } catch {
      // told by the toast
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  }

  return (
    <>
      <button
        type="button"
        className="icon-button labelled"
        title="Suggest title"
        aria-label="Suggest title"
        aria-busy={busy || undefined}
        disabled={busy}
        onClick={() => void suggest()}
      >
        <SparkleIcon />
      </button>
      {suggestion && (
        <SuggestedTitleDialog
          title={suggestion.title}
          currentTitle={currentTitle}
          onAccept={onAccept}
          onClose={() => setSuggestion(undefined)}
        />
      )}
    </>
  );
}
