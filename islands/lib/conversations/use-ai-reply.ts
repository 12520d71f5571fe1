import { useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
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
} from "./ai-stream";

type Outcome = { status: "accepted" | "skipped" };

export interface Suggestion {
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

export type AiReply = ReturnType<typeof useAiReply>;

/**
 * An AI reply in a conversation: `invite` sends the typed message (if any), then streams the AI's
 * reply with its status texts; a tool suggestion waits for Accept, Skip or Cancel. Accept
 * changes the note through the normal edit API (so undo works); when every suggestion is resolved
 * the results are submitted and the continuation streams in the same way. `onDone` runs after each
 * stream ends (reload the messages: the saved reply appears there). The state is shown by
 * AiReplyView, inside the conversation, and started by AiReplyButton, beside the send box.
 */
export function useAiReply({
  conversationId,
  noteId,
  onDone,
}: {
  conversationId: number;
  /** The note the conversation is about (looked up from the conversation when absent). */
  noteId?: number;
  onDone: () => void;
}) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState("");
  const [reply, setReply] = useState("");
  const [error, setError] = useState("");
  const [waiting, setWaiting] = useState<WaitingRun | undefined>();
  const [details, setDetails] = useState<string | undefined>();
  const noteIdRef = useRef(noteId);
  const busyRef = useRef(false);

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
        const calls: ToolCall[] = data.required_action?.submit_tool_outputs.tool_calls ?? [];
        setReply("");
        setWaiting({
          threadId: data.thread_id,
          runId: data.id,
          suggestions: calls.map((toolCall) => ({ call: toolCall, args: parseArgs(toolCall.function.arguments) })),
        });
        if (calls.some((toolCall) => toolCall.function.name === "complete_note_details")) {
          void currentNote()
            .then((realm) => setDetails(realm?.note.details ?? ""))
            .catch(() => setDetails(undefined));
        }
        break;
      }
      case "error":
        setError(streamErrorText(data));
        break;
    }
  }

  async function stream(path: string, body?: unknown) {
    busyRef.current = true;
    setBusy(true);
    setError("");
    setReply("");
    try {
      await postEventStream(path, body, onEvent);
    } catch (failure) {
      setError(failure instanceof StreamRefused ? failure.message : "There is a problem");
    } finally {
      busyRef.current = false;
      setBusy(false);
      setStatus("");
      setReply("");
      onDone();
    }
  }

  /** Sends `message` when it is not blank (then `onMessageSent`), and asks the AI to reply. */
  async function invite(message?: string, onMessageSent?: () => void) {
    if (busyRef.current) return;
    setWaiting(undefined);
    const text = message?.trim();
    if (text) {
      busyRef.current = true;
      try {
        await call(api.conversation({ conversationId }).send.post({ message: text }));
      } catch {
        busyRef.current = false; // the toast said why; the text stays in the box
        return;
      }
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
    try {
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
    } catch {
      return; // refused (the toast says why): the suggestion stays, to skip or cancel
    }
    await resolve(index, { status: "accepted" });
  }

  async function cancel() {
    if (!waiting) return;
    const run = waiting;
    setWaiting(undefined);
    try {
      await call(api.ai["cancel-run"]({ threadId: encodeURIComponent(run.threadId) })({ runId: encodeURIComponent(run.runId) }).post());
    } catch {
      // the toast says why
    }
    onDone();
  }

  return {
    busy,
    status,
    reply,
    error,
    waiting,
    details,
    /** Something to show: a stream running, its text, an error or suggestions waiting. */
    active: busy || !!status || !!reply || !!error || !!waiting,
    invite,
    accept,
    skip: (index: number) => resolve(index, { status: "skipped" }),
    cancel,
  };
}
