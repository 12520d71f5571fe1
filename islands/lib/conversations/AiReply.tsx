import { useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useRef, useState } from "react";
import { api, call } from "../api";
import { type NoteRealmJson, noteRealmQuery } from "../notes-queries";
import { pushUndo } from "../undo-history";
import {
  completedDetails,
  postEventStream,
  type StreamEvent,
  StreamRefused,
  statusText,
  streamErrorText,
  type ToolCall,
  visibleTail,
} from "./ai-stream";

type Outcome = { status: "accepted" | "skipped" };

interface Suggestion {
  call: ToolCall;
  args: Record<string, unknown> | undefined;
  outcome?: Outcome;
}

interface WaitingRun {
  threadId: string;
  runId: string;
  suggestions: Suggestion[];
}

const parseArgs = (text: string) => {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
};

/**
 * "Send message and invite AI to reply": sends the typed message (if any), then streams
 * the AI's reply with the spec's status texts, and shows each tool suggestion with Accept / Skip /
 * Cancel. Accept changes the note through the normal edit API (so undo works); when every
 * suggestion is resolved the results are submitted and the continuation streams in the same way.
 * `onDone` runs after each stream ends (reload the messages: the saved reply appears there).
 *
 * Mount it as the MessageInput's `extra`:
 *   extra={(text, clear) => <AiReplyButton conversationId={id} message={text} onMessageSent={clear} onDone={reload} />}
 */
export function AiReplyButton({
  conversationId,
  onDone,
  noteId,
  message,
  onMessageSent,
}: {
  conversationId: number;
  onDone: () => void;
  /** The note the conversation is about (looked up from the conversation when absent). */
  noteId?: number;
  /** The typed message, sent first when not blank. */
  message?: string;
  onMessageSent?: () => void;
}) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState("");
  const [reply, setReply] = useState("");
  const [error, setError] = useState("");
  const [waiting, setWaiting] = useState<WaitingRun | undefined>();
  const [details, setDetails] = useState<string | undefined>();
  const noteIdRef = useRef(noteId);

  async function subjectNoteId(): Promise<number | undefined> {
    if (noteIdRef.current) return noteIdRef.current;
    const conversation = await call(api.conversation({ conversationId }).get(), { silent: true });
    noteIdRef.current = conversation.subject.note?.id ?? conversation.subject.answeredQuestion?.note.id;
    return noteIdRef.current;
  }

  async function currentNote(): Promise<NoteRealmJson | undefined> {
    const id = await subjectNoteId();
    return id ? queryClient.fetchQuery({ ...noteRealmQuery(id), staleTime: 0 }) : undefined;
  }

  function onEvent(received: StreamEvent) {
    setStatus(received.event === "done" ? "" : statusText(received.event));
    const { event, data } = received;
    switch (event) {
      case "thread.message.created":
        setReply(data.content[0]?.text.value ?? "");
        break;
      case "thread.message.delta":
        setReply((text) => text + (data.delta.content[0]?.text.value ?? ""));
        break;
      case "thread.run.step.created":
        if (data.type === "tool_calls") setReply("");
        break;
      case "thread.run.step.delta":
        setReply((text) => text + (data.delta.step_details.tool_calls[0]?.function.arguments ?? ""));
        break;
      case "thread.run.requires_action": {
        const calls = data.required_action?.submit_tool_outputs.tool_calls ?? [];
        setReply("");
        setWaiting({
          threadId: data.thread_id,
          runId: data.id,
          suggestions: calls.map((call) => ({ call, args: parseArgs(call.function.arguments) })),
        });
        if (calls.some((call) => call.function.name === "complete_note_details")) {
          void currentNote().then((realm) => setDetails(realm?.note.details ?? ""));
        }
        break;
      }
      case "error":
        setError(streamErrorText(data));
        break;
    }
  }

  async function stream(path: string, body?: unknown) {
    setBusy(true);
    setError("");
    setReply("");
    try {
      await postEventStream(path, body, onEvent);
    } catch (failure) {
      setError(failure instanceof StreamRefused ? failure.message : "There is a problem");
    } finally {
      setBusy(false);
      setStatus("");
      setReply("");
      onDone();
    }
  }

  async function invite() {
    if (busy) return;
    setWaiting(undefined);
    const text = message?.trim();
    if (text) {
      await call(api.conversation({ conversationId }).send.post({ message: text }));
      onMessageSent?.();
      onDone();
    }
    await stream(`/api/conversation/${conversationId}/ai-reply`);
  }

  async function resolve(index: number, outcome: Outcome) {
    if (!waiting) return;
    const suggestions = waiting.suggestions.map((s, i) => (i === index ? { ...s, outcome } : s));
    const run = { ...waiting, suggestions };
    setWaiting(run);
    if (suggestions.some((s) => !s.outcome)) return;
    setWaiting(undefined);
    const results = Object.fromEntries(suggestions.map((s) => [s.call.id, s.outcome!]));
    await stream(`/api/ai/submit-tool-results/${encodeURIComponent(run.threadId)}/${encodeURIComponent(run.runId)}`, results);
  }

  async function accept(index: number) {
    const suggestion = waiting?.suggestions[index];
    if (!suggestion?.args) return;
    const realm = await currentNote();
    if (!realm) return;
    const id = realm.note.id;
    if (suggestion.call.function.name === "complete_note_details") {
      const previous = realm.note.details;
      const next = completedDetails(previous, Number(suggestion.args.deleteFromEnd ?? 0), String(suggestion.args.completion ?? ""));
      await call(api.text_content({ note: id }).details.patch({ details: next }));
      pushUndo({ type: "edit details", noteId: id, textContent: previous });
    } else {
      const previous = realm.note.noteTopology.titleOrPredicate;
      await call(api.text_content({ note: id }).title.patch({ newTitle: String(suggestion.args.newTitle ?? "") }));
      pushUndo({ type: "edit title", noteId: id, textContent: previous });
    }
    await queryClient.invalidateQueries({ queryKey: noteRealmQuery(id).queryKey });
    await resolve(index, { status: "accepted" });
  }

  async function cancel() {
    if (!waiting) return;
    const run = waiting;
    setWaiting(undefined);
    await call(api.ai["cancel-run"]({ threadId: encodeURIComponent(run.threadId) })({ runId: encodeURIComponent(run.runId) }).post());
    onDone();
  }

  return (
    <>
      <button type="button" className="button" onClick={() => void invite()} disabled={busy || !!waiting}>
        Send message and invite AI to reply
      </button>
      {(busy || status || reply || error || waiting) && (
        <div className="ai-reply" role="status" aria-live="polite">
          {status && <p className="ai-reply-status">{status}</p>}
          {reply && (
            <p className="ai-reply-text" dir="auto">
              {reply}
            </p>
          )}
          {error && (
            <p className="ai-reply-error" role="alert">
              {error}
            </p>
          )}
          {waiting?.suggestions.map((suggestion, index) =>
            suggestion.outcome ? null : (
              <ToolSuggestion
                key={suggestion.call.id}
                suggestion={suggestion}
                details={details}
                onAccept={() => void accept(index)}
                onSkip={() => void resolve(index, { status: "skipped" })}
                onCancel={() => void cancel()}
              />
            ),
          )}
        </div>
      )}
    </>
  );
}

/** One suggestion: a completion as a diff, a title as text, anything else as raw JSON (no Accept). */
function ToolSuggestion({
  suggestion,
  details,
  onAccept,
  onSkip,
  onCancel,
}: {
  suggestion: Suggestion;
  details: string | undefined;
  onAccept: () => void;
  onSkip: () => void;
  onCancel: () => void;
}) {
  const { call, args } = suggestion;
  let body: ReactNode;
  let acceptable = Boolean(args);
  if (call.function.name === "complete_note_details" && args) {
    const deleteFromEnd = Math.max(0, Math.trunc(Number(args.deleteFromEnd) || 0));
    const tail = details === undefined || deleteFromEnd === 0 ? "" : details.slice(Math.max(0, details.length - deleteFromEnd));
    body = (
      <>
        <p>Suggested completion:</p>
        <p className="ai-completion" dir="auto">
          {tail ? <del>{visibleTail(tail)}</del> : "..."}
          <ins>{String(args.completion ?? "")}</ins>
        </p>
      </>
    );
  } else if (call.function.name === "suggest_note_title" && args) {
    body = (
      <>
        <p>Suggested title:</p>
        <p className="ai-title" dir="auto">
          {String(args.newTitle ?? "")}
        </p>
      </>
    );
  } else {
    acceptable = false;
    body = (
      <>
        <p>Unknown tool call: {call.function.name}</p>
        <pre className="ai-raw">{call.function.arguments}</pre>
      </>
    );
  }
  return (
    <div className="ai-suggestion">
      {body}
      <div className="ai-suggestion-actions">
        {acceptable && (
          <button type="button" className="button primary" onClick={onAccept}>
            Accept
          </button>
        )}
        <button type="button" className="button" onClick={onSkip}>
          Skip
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
