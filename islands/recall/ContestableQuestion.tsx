import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { renderMarkdownSafely } from "../lib/markdown";
import { QuestionDisplay } from "../lib/recall/QuestionDisplay";
import type { RecallPromptJson } from "../lib/recall/recall-prompt-types";
import type { ItemHandlers } from "./item-handlers";
import { NotebookLink } from "./NotebookLink";
import {
  answerQuestion,
  contestQuestion,
  FAILED_TO_SUBMIT,
  isTrackerGone,
  regenerateQuestion,
  type TrackerQuestion,
  thinkingSince,
  trackerQuestionQuery,
} from "./recall-api";
import type { MemoryTrackerLite } from "./recall-session";

interface Contested {
  prompt: RecallPromptJson;
  advice: string;
}

/**
 * A multiple-choice question that the learner can answer or contest ("Doesn't make sense?"). A
 * rejected contest shows the advice as a warning; an accepted one keeps the old question as
 * "Previous Question Contested ..." and a regenerated question takes its place in the tracker's
 * cache (none regenerated: the cache says so and the page falls back to the simple review).
 */
export function ContestableQuestion({
  tracker,
  prompt,
  onFinished,
  onGone,
}: { tracker: MemoryTrackerLite; prompt: RecallPromptJson } & ItemHandlers) {
  const queryClient = useQueryClient();
  const [contested, setContested] = useState<Contested[]>([]);
  const [warning, setWarning] = useState<string>();
  const [busy, setBusy] = useState<"contesting" | "regenerating">();
  const [submittingIndex, setSubmittingIndex] = useState<number>();
  const [failed, setFailed] = useState(false);
  const [shownAt] = useState(() => Date.now());

  const replaceQuestion = (next: RecallPromptJson | null) => {
    const question: TrackerQuestion = { kind: "choice", prompt: next };
    queryClient.setQueryData(trackerQuestionQuery(tracker).queryKey, question);
  };

  async function choose(choiceIndex: number) {
    if (submittingIndex !== undefined || busy) return;
    setSubmittingIndex(choiceIndex);
    setFailed(false);
    try {
      const answered = await answerQuestion(tracker.memoryTrackerId, prompt, choiceIndex, thinkingSince(shownAt));
      onFinished({ type: "question", answeredQuestion: answered });
    } catch (error) {
      setSubmittingIndex(undefined);
      setFailed(true);
      if (isTrackerGone(error)) onGone();
    }
  }

  async function contest() {
    if (busy || submittingIndex !== undefined) return;
    setBusy("contesting");
    setWarning(undefined);
    try {
      const result = await contestQuestion(prompt.id);
      if (result.rejected) {
        setWarning(result.advice ?? "");
        return;
      }
      setContested((list) => [...list, { prompt, advice: result.advice ?? "" }]);
      setBusy("regenerating");
      // The old question is contested on the server: without a new one, the simple review follows.
      replaceQuestion(await regenerateQuestion(prompt.id, result).catch(() => null));
    } catch {
      // The API client has shown the failure; the question stays as it was.
    } finally {
      setBusy(undefined);
    }
  }

  return (
    <div className="contestable-question">
      {contested.map((item) => (
        <div key={item.prompt.id} className="card contested-question">
          <h3>Previous Question Contested ...</h3>
          {item.advice && (
            <div
              className="contest-advice markdown"
              // biome-ignore lint/security/noDangerouslySetInnerHtml: renderMarkdownSafely escapes raw HTML and drops unsafe URLs.
              dangerouslySetInnerHTML={{ __html: renderMarkdownSafely(item.advice) }}
            />
          )}
          <QuestionDisplay question={item.prompt.multipleChoicesQuestion} />
        </div>
      ))}
      {busy === "regenerating" ? (
        <p className="muted" role="status">
          Regenerating the question...
        </p>
      ) : (
        <>
          {prompt.notebook && <NotebookLink notebook={prompt.notebook} />}
          <div className={busy === "contesting" ? "question-dimmed" : undefined} aria-busy={busy === "contesting" || undefined}>
            <QuestionDisplay
              question={prompt.multipleChoicesQuestion}
              onChoose={choose}
              disabled={busy !== undefined || submittingIndex !== undefined}
              submittingIndex={submittingIndex}
            />
          </div>
          {failed && (
            <p className="form-message" role="alert">
              {FAILED_TO_SUBMIT}
            </p>
          )}
          {warning !== undefined && (
            <p className="alert warning" role="status">
              {warning}
            </p>
          )}
          <button
            type="button"
            className="button small contest-button"
            disabled={busy !== undefined || submittingIndex !== undefined}
            onClick={contest}
          >
            Doesn't make sense?
          </button>
        </>
      )}
    </div>
  );
}
