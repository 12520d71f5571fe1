/**
 * The browser side of the AI reply stream: a POST whose answer is server-sent events
 * (EventSource only does GET), read chunk by chunk, split on blank lines, `data:` lines joined
 * with "\n" (as the reference's createEventSourceWithBody), and the spec's status text per event.
 */
import type { AiReplyEvent, AiReplyEventName } from "../../../src/services/conversations/ai-chat/events";

export type { AiReplyEvent, ToolCall } from "../../../src/services/conversations/ai-chat/events";

/** An event as read from the stream: one the server sends (the shared union), its data parsed as JSON or kept as text ("[DONE]"). */
export type StreamEvent = AiReplyEvent;

/** Status texts of spec 4 "AI reply stream"; any other event shows its name. */
export const STATUS_TEXTS: Partial<Record<AiReplyEventName, string>> = {
  "thread.message.created": "Generating response...",
  "thread.message.delta": "Writing response...",
  "thread.run.requires_action": "Processing actions...",
  "thread.run.step.created": "Starting tool execution...",
  "thread.run.step.delta": "Processing tool call...",
};
export const statusText = (event: AiReplyEventName) => STATUS_TEXTS[event] ?? event;

/** Splits what arrived so far into whole events; answers them and the unfinished rest. */
export function parseEvents(buffer: string): { events: StreamEvent[]; rest: string } {
  const normalized = buffer.replace(/\r\n?/g, "\n");
  const blocks = normalized.split("\n\n");
  const rest = blocks.pop() ?? "";
  const events: StreamEvent[] = [];
  for (const block of blocks) {
    let event = "message";
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line.startsWith("event:")) event = line.slice(6).trim();
      else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
    }
    if (!data.length && event === "message") continue;
    const raw = data.join("\n");
    let parsed: unknown = raw;
    try {
      parsed = JSON.parse(raw);
    } catch {
      // not JSON ("[DONE]")
    }
    // The server sends only the union's events (src/web/sse.ts frames them from the same type).
    events.push({ event, data: parsed } as StreamEvent);
  }
  return { events, rest };
}

/** An error before the stream: the server's message (e.g. "AI is not configured"), or the status in words. */
export class StreamRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Posts and hands each event to `onEvent` as it arrives. Throws StreamRefused when the answer is not a stream. */
export async function postEventStream(path: string, body: unknown, onEvent: (event: StreamEvent) => void, signal?: AbortSignal) {
  const response = await fetch(path, {
    method: "POST",
    headers: { accept: "text/event-stream", ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "same-origin",
    signal,
  });
  if (!response.ok || !response.body) {
    const text = await response.text().catch(() => "");
    let message = response.status === 400 ? "Bad Request" : `${response.status} ${response.statusText}`.trim();
    try {
      const parsed = JSON.parse(text) as { message?: string; errors?: Record<string, string> };
      if (response.status !== 400 && parsed.message) message = parsed.message;
    } catch {
      // keep the status
    }
    throw new StreamRefused(response.status, message);
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    const { events, rest } = parseEvents(buffer);
    buffer = rest;
    for (const event of events) onEvent(event);
  }
  const { events } = parseEvents(`${buffer}\n\n`);
  for (const event of events) onEvent(event);
}

/** The text an `error` event shows: "Bad Request" for a 400 (spec), else its message. */
export function streamErrorText(data: unknown): string {
  const message =
    typeof data === "string"
      ? data
      : typeof (data as { message?: unknown })?.message === "string"
        ? (data as { message: string }).message
        : "";
  if (/\b400\b/.test(message)) return "Bad Request";
  return message || "There is a problem";
}

/** New details after a completion: the last deleteFromEnd characters removed (UTF-16, as the reference's client), then the completion. */
export function completedDetails(details: string, deleteFromEnd: number, completion: string): string {
  const cut = Math.max(0, Math.min(Math.trunc(deleteFromEnd) || 0, details.length));
  return details.slice(0, details.length - cut) + completion;
}

/** The deleted tail as the suggestion shows it: spaces as "·", newlines as "↵". */
export const visibleTail = (tail: string) => tail.replace(/ /g, "·").replace(/\n/g, "↵");
