/**
 * Chat with the AI in a conversation (docs/decisions.md, decisions 11 and 12). One streamed Chat
 * Completions call with function tools per reply leg (relay.ts), sent on as the reference's
 * Assistants-API events (events.ts). Threads and runs are Engram's own rows (runs.ts); the prompt
 * is prompt.ts, the tools tools.ts. The reply is saved as a message with no sender only when it
 * is complete; a failed or cancelled run saves nothing. The services answer a stream of events;
 * src/web/sse.ts frames it as server-sent events.
 */
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { aiClient } from "../../../ai/client";
import type { AppContext } from "../../../context";
import { BadRequestError } from "../../errors";
import type { CurrentUser } from "../../users";
import { partyConversation } from "../conversation-service";
import type { AiReplyStream, RunObject, ToolCall } from "./events";
import { chatMessages, readableSubject } from "./prompt";
import { REPLY_TIMEOUT_MS, streamLeg } from "./relay";
import { abortLiveRun, partyRun, type RunRow, runObject, type ThreadRow, unwatchRun, watchRun } from "./runs";
import { toolResults } from "./tools";

export type { AiReplyEvent, AiReplyStream } from "./events";
export { CONVERSATION_INSTRUCTION } from "./prompt";
export { CHAT_TOOLS, MAX_TOOL_RESULT_LENGTH } from "./tools";

/** The provider's message keeps its status (e.g. "400 ..."), which the client shows as "Bad Request". */
function errorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.slice(0, 1000) || "The AI service did not answer";
}

/** A run's leg as a stream: failures become an `error` event and a failed (or cancelled) run. */
function runStream(
  ctx: AppContext,
  conversationId: number,
  thread: ThreadRow,
  run: RunRow,
  messages: ChatCompletionMessageParam[],
  first: "thread.run.created" | "thread.run.in_progress",
): AiReplyStream {
  const abort = new AbortController();
  watchRun(ctx, run.id, abort);
  const timer = setTimeout(() => abort.abort(), REPLY_TIMEOUT_MS);
  return {
    abort,
    async produce(send, signal) {
      try {
        send({ event: first, data: runObject(thread, run, first === "thread.run.created" ? "queued" : "in_progress") });
        await streamLeg(ctx, conversationId, thread, run, messages, send, signal);
      } catch (error) {
        const status = await ctx.stores.aiRuns.fail(run.id, ctx.clock.now().getTime());
        const cancelled = signal.aborted || status === "cancelled";
        send({ event: "error", data: { message: cancelled ? "The reply was cancelled" : errorMessage(error) } });
      } finally {
        clearTimeout(timer);
        unwatchRun(ctx, run.id);
      }
    },
  };
}

/** POST /conversation/{id}/ai-reply: a party asks the AI to answer; the reply streams. */
export async function aiReply(ctx: AppContext, current: CurrentUser, conversationId: number): Promise<AiReplyStream> {
  const conversation = await partyConversation(ctx, current, conversationId);
  aiClient(ctx); // 503 "AI is not configured" before any stream starts
  const messages = await chatMessages(ctx, current, conversation);
  // A new reply supersedes a run still waiting for tool results.
  const { thread, run } = await ctx.stores.aiRuns.start(conversation.id, ctx.clock.now().getTime());
  return runStream(ctx, conversation.id, thread, run, messages, "thread.run.created");
}

const NOT_WAITING = "This run is not waiting for tool results";

/** POST /ai/submit-tool-results/{threadId}/{runId}: continues the run with the results; the continuation streams. */
export async function submitToolResults(
  ctx: AppContext,
  current: CurrentUser,
  threadIdText: string,
  runIdText: string,
  body: unknown,
): Promise<AiReplyStream> {
  const { thread, run } = await partyRun(ctx, current, threadIdText, runIdText);
  if (run.status !== "requires_action" || !run.messages || !run.pendingToolCalls) throw new BadRequestError(NOT_WAITING);
  // The waiting run holds the note as it was: it goes on only while the note is still readable.
  await readableSubject(ctx, current, await partyConversation(ctx, current, thread.conversationId));
  const results = toolResults(body, JSON.parse(run.pendingToolCalls) as ToolCall[]);
  aiClient(ctx);
  // Claim the run, so a second submit (or a cancel) in between is refused.
  if (!(await ctx.stores.aiRuns.resume(run.id, ctx.clock.now().getTime()))) throw new BadRequestError(NOT_WAITING);
  const messages = JSON.parse(run.messages) as ChatCompletionMessageParam[];
  for (const [id, content] of results) messages.push({ role: "tool", tool_call_id: id, content });
  return runStream(ctx, thread.conversationId, thread, { ...run, status: "in_progress" }, messages, "thread.run.in_progress");
}

/** POST /ai/cancel-run/{threadId}/{runId}: ends a waiting (or streaming) run; nothing of it is saved. */
export async function cancelRun(ctx: AppContext, current: CurrentUser, threadIdText: string, runIdText: string): Promise<RunObject> {
  const { thread, run } = await partyRun(ctx, current, threadIdText, runIdText);
  if (!(await ctx.stores.aiRuns.cancel(run.id, ctx.clock.now().getTime()))) throw new BadRequestError("This run has already finished");
  // Streamed by this process: stopped at once (another process's watcher sees the state).
  abortLiveRun(ctx, run.id);
  return runObject(thread, run, "cancelled");
}
