/**
 * The relay: one leg of a run as a streamed Chat Completions call, its chunks sent on as the
 * reference's events (events.ts). No HTTP here: the web layer frames the events (src/web/sse.ts).
 */
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { aiClient } from "../../../ai/client";
import { modelFor } from "../../../ai/model-settings";
import type { AppContext } from "../../../context";
import type { MessageObject, SendEvent, ToolCall } from "./events";
import { type RunRow, runIdOf, runObject, type ThreadRow, threadIdOf } from "./runs";
import { CHAT_TOOLS } from "./tools";

/** Longest run a reply may take (the provider's own timeout is 60 s per request). */
export const REPLY_TIMEOUT_MS = 120_000;

/**
 * One leg of a run: a streamed Chat Completions call relayed as the reference's events. Ends the
 * run as completed (the reply saved as an AI message) or requires_action (messages and tool calls
 * stored). Throws on provider failure or abort; the caller marks the run.
 */
export async function streamLeg(
  ctx: AppContext,
  conversationId: number,
  thread: ThreadRow,
  run: RunRow,
  messages: ChatCompletionMessageParam[],
  send: SendEvent,
  signal: AbortSignal,
) {
  const client = aiClient(ctx);
  const stream = await client.chat.completions.create(
    { model: await modelFor(ctx, "othersModel"), messages, tools: CHAT_TOOLS, stream: true },
    { signal, timeout: REPLY_TIMEOUT_MS, maxRetries: 0 },
  );
  const threadId = threadIdOf(thread);
  const runId = runIdOf(run);
  const messageId = `msg_${run.id}_${messages.length}`;
  const stepId = `step_${run.id}_${messages.length}`;
  const messageObject = (status: MessageObject["status"], value: string): MessageObject => ({
    id: messageId,
    object: "thread.message",
    thread_id: threadId,
    run_id: runId,
    role: "assistant",
    status,
    content: [{ type: "text", text: { value, annotations: [] } }],
  });
  let text = "";
  let messageStarted = false;
  const calls: { id: string; name: string; arguments: string }[] = [];
  for await (const chunk of stream) {
    const delta = chunk.choices?.[0]?.delta;
    if (!delta) continue;
    if (delta.content) {
      if (!messageStarted) {
        messageStarted = true;
        send({ event: "thread.message.created", data: messageObject("in_progress", "") });
      }
      text += delta.content;
      send({
        event: "thread.message.delta",
        data: {
          id: messageId,
          object: "thread.message.delta",
          delta: { content: [{ index: 0, type: "text", text: { value: delta.content, annotations: [] } }] },
        },
      });
    }
    for (const call of delta.tool_calls ?? []) {
      if (calls.length === 0) {
        send({
          event: "thread.run.step.created",
          data: {
            id: stepId,
            object: "thread.run.step",
            type: "tool_calls",
            thread_id: threadId,
            run_id: runId,
            status: "in_progress",
            step_details: { type: "tool_calls", tool_calls: [] },
          },
        });
      }
      const known = calls[call.index] ?? { id: "", name: "", arguments: "" };
      calls[call.index] = known;
      if (call.id) known.id = call.id;
      if (call.function?.name) known.name += call.function.name;
      const piece = call.function?.arguments ?? "";
      known.arguments += piece;
      send({
        event: "thread.run.step.delta",
        data: {
          id: stepId,
          object: "thread.run.step.delta",
          delta: {
            step_details: {
              type: "tool_calls",
              tool_calls: [{ index: call.index, id: known.id, type: "function", function: { name: known.name, arguments: piece } }],
            },
          },
        },
      });
    }
  }
  if (signal.aborted) throw new Error("cancelled");
  if (messageStarted) send({ event: "thread.message.completed", data: messageObject("completed", text) });
  const toolCalls: ToolCall[] = calls.filter(Boolean).map((call, index) => ({
    id: call.id || `call_${run.id}_${messages.length}_${index}`,
    type: "function",
    function: { name: call.name, arguments: call.arguments },
  }));
  const replySoFar = [run.replySoFar, text.trim()].filter(Boolean).join("\n\n");
  if (toolCalls.length > 0) {
    const waiting = [...messages, { role: "assistant", content: text || null, tool_calls: toolCalls } as ChatCompletionMessageParam];
    await ctx.stores.aiRuns.waitForTools(
      run.id,
      { messages: JSON.stringify(waiting), pendingToolCalls: JSON.stringify(toolCalls), replySoFar },
      ctx.clock.now().getTime(),
    );
    send({ event: "thread.run.requires_action", data: runObject(thread, run, "requires_action", toolCalls) });
    return;
  }
  // A cancel that came in while the last chunk was read wins: nothing is saved then.
  if (!(await ctx.stores.aiRuns.complete(run.id, conversationId, replySoFar, ctx.clock.now().getTime()))) throw new Error("cancelled");
  send({ event: "thread.run.completed", data: runObject(thread, run, "completed") });
}
