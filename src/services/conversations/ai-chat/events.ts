/**
 * The events of an AI reply stream, shared by the server (which sends them) and the browser
 * (islands/lib/conversations/ai-stream.ts, which parses them). Names and payloads are those of the
 * reference's Assistants-API stream, so its client reads them unchanged (docs/decisions.md,
 * decision 12). Type-only: nothing here reaches the browser bundle.
 */

/** A function call the model asks for, as stored and as sent. */
export interface ToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** The run object of thread.run.* events. */
export interface RunObject {
  id: string;
  object: "thread.run";
  thread_id: string;
  status: "queued" | "in_progress" | "requires_action" | "completed" | "cancelled";
  required_action: { type: "submit_tool_outputs"; submit_tool_outputs: { tool_calls: ToolCall[] } } | null;
}

interface TextContent {
  type: "text";
  text: { value: string; annotations: [] };
}

export interface MessageObject {
  id: string;
  object: "thread.message";
  thread_id: string;
  run_id: string;
  role: "assistant";
  status: "in_progress" | "completed";
  content: TextContent[];
}

export interface MessageDelta {
  id: string;
  object: "thread.message.delta";
  delta: { content: (TextContent & { index: number })[] };
}

export interface RunStep {
  id: string;
  object: "thread.run.step";
  type: "tool_calls";
  thread_id: string;
  run_id: string;
  status: "in_progress";
  step_details: { type: "tool_calls"; tool_calls: [] };
}

export interface RunStepDelta {
  id: string;
  object: "thread.run.step.delta";
  delta: { step_details: { type: "tool_calls"; tool_calls: (ToolCall & { index: number })[] } };
}

/** Every event a reply stream sends, by name; it always ends with `done`. */
export type AiReplyEvent =
  | { event: "thread.run.created" | "thread.run.in_progress" | "thread.run.requires_action" | "thread.run.completed"; data: RunObject }
  | { event: "thread.message.created" | "thread.message.completed"; data: MessageObject }
  | { event: "thread.message.delta"; data: MessageDelta }
  | { event: "thread.run.step.created"; data: RunStep }
  | { event: "thread.run.step.delta"; data: RunStepDelta }
  | { event: "error"; data: { message: string } }
  | { event: "done"; data: "[DONE]" };

export type AiReplyEventName = AiReplyEvent["event"];

/** Sends one event of the stream. */
export type SendEvent = (event: AiReplyEvent) => void;

/**
 * A reply in progress, as a service answers it: the web layer frames it as server-sent events.
 * `produce` sends the events (not `done`, which the framing adds last) and settles when the run
 * has ended; `abort` stops it when the browser goes away.
 */
export interface AiReplyStream {
  produce(send: SendEvent, signal: AbortSignal): Promise<void>;
  abort: AbortController;
}
