import { t } from "elysia";
import type {
  AiReplyEvent as AiReplyEventJson,
  MessageDelta as MessageDeltaJson,
  MessageObject as MessageObjectJson,
  RunObject as RunObjectJson,
  RunStepDelta as RunStepDeltaJson,
  RunStep as RunStepJson,
  ToolCall as ToolCallJson,
} from "../../services/conversations/ai-chat/events";
import { Integer } from "./integer";
import { eventStreamAnswer } from "./media";
import { describes } from "./same-type";

/** The AI reply stream's events (docs/decisions.md, decision 12) and the run object. */

const ToolCall = describes<ToolCallJson>()(
  t.Object({ id: t.String(), type: t.Literal("function"), function: t.Object({ name: t.String(), arguments: t.String() }) }),
);

export const RunObject = describes<RunObjectJson>()(
  t.Object({
    id: t.String(),
    object: t.Literal("thread.run"),
    thread_id: t.String(),
    status: t.Union([
      t.Literal("queued"),
      t.Literal("in_progress"),
      t.Literal("requires_action"),
      t.Literal("completed"),
      t.Literal("cancelled"),
    ]),
    required_action: t.Union([
      t.Object({ type: t.Literal("submit_tool_outputs"), submit_tool_outputs: t.Object({ tool_calls: t.Array(ToolCall) }) }),
      t.Null(),
    ]),
  }),
);

const TextContent = t.Object({ type: t.Literal("text"), text: t.Object({ value: t.String(), annotations: t.Tuple([]) }) });

const MessageObject = describes<MessageObjectJson>()(
  t.Object({
    id: t.String(),
    object: t.Literal("thread.message"),
    thread_id: t.String(),
    run_id: t.String(),
    role: t.Literal("assistant"),
    status: t.Union([t.Literal("in_progress"), t.Literal("completed")]),
    content: t.Array(TextContent),
  }),
);

const MessageDelta = describes<MessageDeltaJson>()(
  t.Object({
    id: t.String(),
    object: t.Literal("thread.message.delta"),
    delta: t.Object({ content: t.Array(t.Composite([TextContent, t.Object({ index: Integer() })])) }),
  }),
);

const RunStep = describes<RunStepJson>()(
  t.Object({
    id: t.String(),
    object: t.Literal("thread.run.step"),
    type: t.Literal("tool_calls"),
    thread_id: t.String(),
    run_id: t.String(),
    status: t.Literal("in_progress"),
    step_details: t.Object({ type: t.Literal("tool_calls"), tool_calls: t.Tuple([]) }),
  }),
);

const RunStepDelta = describes<RunStepDeltaJson>()(
  t.Object({
    id: t.String(),
    object: t.Literal("thread.run.step.delta"),
    delta: t.Object({
      step_details: t.Object({
        type: t.Literal("tool_calls"),
        tool_calls: t.Array(t.Composite([ToolCall, t.Object({ index: Integer() })])),
      }),
    }),
  }),
);

/** One event of a reply stream: its name (the SSE `event:` line) and its data (the `data:` line, as JSON). */
const AiReplyEvent = describes<AiReplyEventJson>()(
  t.Union([
    t.Object({
      event: t.Union([
        t.Literal("thread.run.created"),
        t.Literal("thread.run.in_progress"),
        t.Literal("thread.run.requires_action"),
        t.Literal("thread.run.completed"),
      ]),
      data: RunObject,
    }),
    t.Object({ event: t.Union([t.Literal("thread.message.created"), t.Literal("thread.message.completed")]), data: MessageObject }),
    t.Object({ event: t.Literal("thread.message.delta"), data: MessageDelta }),
    t.Object({ event: t.Literal("thread.run.step.created"), data: RunStep }),
    t.Object({ event: t.Literal("thread.run.step.delta"), data: RunStepDelta }),
    t.Object({ event: t.Literal("error"), data: t.Object({ message: t.String() }) }),
    t.Object({ event: t.Literal("done"), data: t.Literal("[DONE]") }),
  ]),
);

/** A reply stream: server-sent events, always ending with `done`. */
export const AiReplyStream = eventStreamAnswer(
  AiReplyEvent,
  "Server-sent events: each event's name is its `event:` line and its data the `data:` line (JSON, or [DONE] for the last, `done`).",
);
