/**
 * Chat with the AI in a conversation (docs/decisions.md, decisions 11 and 12). One streamed Chat Completions
 * call with function tools per reply leg, relayed as server-sent events that carry the reference's
 * Assistants-API event names and payload fields, so its client reads them
 * unchanged. Threads and runs are Engram's own rows (ai_threads, ai_runs): a run that calls tools
 * waits in SQLite with its messages and pending tool calls until submit-tool-results continues it
 * (streamed, unlike the reference) or cancel-run ends it. The reply is saved as a message with no
 * sender only when it is complete; a failed or cancelled run saves nothing.
 */
import { and, eq, inArray } from "drizzle-orm";
import type { ChatCompletionMessageParam, ChatCompletionMessageToolCall, ChatCompletionTool } from "openai/resources/chat/completions";
import { aiClient } from "../../ai/client";
import { modelFor } from "../../ai/model-settings";
import { MCQ_WITH_ANSWER_SCHEMA } from "../../ai/question-generation";
import { PKM_INSTRUCTION } from "../../ai/question-refinement";
import type { AppContext } from "../../context";
import type { DbHandle } from "../../db/connection";
import { accounts, aiRuns, aiThreads, conversationMessages, conversations, recallPrompts, users } from "../../db/schema";
import { defaultAdditionalInstructions } from "../admin/assistant";
import { notebookAdditionalInstructions } from "../ai-assistant/notebook-assistant";
import { BadRequestError, NotFoundError, ValidationError } from "../errors";
import { DEFAULT_GRAPH_TOKEN_LIMIT, graphDescription } from "../graph/build-graph";
import { getNote, type NoteRow } from "../notes/rows";
import { loadPromptOf, storedQuestion } from "../recall-prompts/rows";
import type { CurrentUser } from "../users";
import { type ConversationRow, partyConversation } from "./conversation-service";

/** Tells the model that this is a chat, so it only edits the note when asked. */
export const CONVERSATION_INSTRUCTION =
  "The user wants to have a conversation about the note of focus. Answer in Markdown. Do not call functions that update the note unless the user explicitly asks for it.";

/** Longest result text accepted for one tool call. */
export const MAX_TOOL_RESULT_LENGTH = 10_000;
/** Longest run a reply may take (the provider's own timeout is 60 s per request). */
const REPLY_TIMEOUT_MS = 120_000;

/** The assistant's function tools, strict like the reference's. */
export const CHAT_TOOLS: ChatCompletionTool[] = [
  {
    type: "function",
    function: {
      name: "complete_note_details",
      description: "Text completion for the details of the note of focus",
      strict: true,
      parameters: {
        type: "object",
        additionalProperties: false,
        required: ["deleteFromEnd", "completion"],
        properties: {
          deleteFromEnd: {
            type: "integer",
            description:
              "Characters (Unicode code points) to delete from the end of the existing details before appending, e.g. trailing whitespace or a partial word; 0 deletes nothing; more than the length deletes everything.",
          },
          completion: {
            type: "string",
            description:
              "Markdown appended after the deletion. Start with any whitespace or newline needed, and with the full word if a partial word was deleted.",
          },
        },
      },
    },
  },
  {
    type: "function",
    function: {
      name: "suggest_note_title",
      description:
        "Suggest a concise title (a word, a phrase or at most one sentence) for the atomic concept of the note of focus, specific within its contextual path without repeating it. Keep the existing title if it is fine.",
      strict: true,
      parameters: {
        type: "object",
        additionalProperties: false,
        required: ["newTitle"],
        properties: { newTitle: { type: "string", description: "The new title of the note of current focus, at most 150 characters." } },
      },
    },
  },
  {
    type: "function",
    function: {
      name: "ask_single_answer_multiple_choice_question",
      description: "Ask the user a single-answer multiple-choice question about the note of focus.",
      strict: true,
      parameters: MCQ_WITH_ANSWER_SCHEMA as unknown as Record<string, unknown>,
    },
  },
];

type RunRow = typeof aiRuns.$inferSelect;
type ThreadRow = typeof aiThreads.$inferSelect;

export const threadIdOf = (thread: { id: number }) => `thread_${thread.id}`;
export const runIdOf = (run: { id: number }) => `run_${run.id}`;
const parseId = (prefix: string, text: string) => {
  const match = new RegExp(`^(?:${prefix}_)?(\\d{1,15})$`).exec(text);
  return match ? Number(match[1]) : undefined;
};

/** Live runs' abort switches, so cancel-run stops a stream in progress (per app instance). */
const liveRuns = new WeakMap<AppContext, Map<number, AbortController>>();
const liveRunsOf = (ctx: AppContext) => {
  let map = liveRuns.get(ctx);
  if (!map) {
    map = new Map();
    liveRuns.set(ctx, map);
  }
  return map;
};

// ------------------------------------------------------------------------------------------------
// What the model sees

const userName = (ctx: AppContext, id: number) => ctx.db.select({ name: users.name }).from(users).where(eq(users.id, id)).get()?.name ?? "";

/** The note a reply is about, and for a recall-prompt conversation the question as the user met it. */
function subjectOf(ctx: AppContext, conversation: ConversationRow): { note: NoteRow; questionContext?: string } {
  if (conversation.subjectNoteId !== null) return { note: getNote(ctx, conversation.subjectNoteId) };
  if (conversation.subjectRecallPromptId !== null) {
    const prompt = ctx.db.select().from(recallPrompts).where(eq(recallPrompts.id, conversation.subjectRecallPromptId)).get();
    if (!prompt) throw new NotFoundError("Recall prompt");
    const loaded = loadPromptOf(ctx, prompt);
    const details = {
      originalQuestionDefinition: {
        multipleChoicesQuestion: storedQuestion(loaded.question),
        correctChoiceIndex: loaded.question.correctAnswerIndex,
        strictChoiceOrder: false,
      },
      ...(prompt.answerChoiceIndex !== null ? { userAnswer: prompt.answerChoiceIndex } : {}),
      ...(prompt.answerCorrect !== null ? { userAnswerWasMarkedAs: prompt.answerCorrect ? "correct" : "incorrect" } : {}),
    };
    const questionContext =
      "The user tried to answer the question below about the note of focus. The user saw only the notebook's name, " +
      "not the note itself; a question that cannot be answered from that counts as wrong.\n" +
      JSON.stringify(details, null, 2);
    return { note: loaded.note, questionContext };
  }
  throw new BadRequestError("The AI can only reply in a conversation about a note or a recall question");
}

/**
 * Whose reading rights limit the note's graph: the initiator's (a bazaar reader, say), never the
 * owner's, since both parties read the reply and it must not retell notes the initiator cannot read.
 */
function graphViewer(ctx: AppContext, current: CurrentUser, conversation: ConversationRow): CurrentUser {
  if (conversation.initiatorUserId === current.user.id) return current;
  const user = ctx.db.select().from(users).where(eq(users.id, conversation.initiatorUserId)).get();
  const account = user && ctx.db.select().from(accounts).where(eq(accounts.id, user.accountId)).get();
  if (!user || !account) throw new NotFoundError("Conversation");
  return { user, account };
}

/** The chat messages of a new reply: instructions, the note's graph, the question, then the conversation so far. */
function chatMessages(ctx: AppContext, current: CurrentUser, conversation: ConversationRow): ChatCompletionMessageParam[] {
  const { note, questionContext } = subjectOf(ctx, conversation);
  const instructions = [
    PKM_INSTRUCTION,
    defaultAdditionalInstructions(ctx).trim(),
    notebookAdditionalInstructions(ctx, note.notebookId).trim(),
    CONVERSATION_INSTRUCTION,
  ]
    .filter(Boolean)
    .join("\n\n");
  const messages: ChatCompletionMessageParam[] = [
    { role: "system", content: instructions },
    { role: "system", content: graphDescription(ctx, note.id, DEFAULT_GRAPH_TOKEN_LIMIT, graphViewer(ctx, current, conversation)) },
  ];
  if (questionContext) messages.push({ role: "system", content: questionContext });
  const history = ctx.db
    .select()
    .from(conversationMessages)
    .where(eq(conversationMessages.conversationId, conversation.id))
    .orderBy(conversationMessages.id)
    .all();
  const names = new Map<number, string>();
  for (const row of history) {
    if (row.senderUserId === null) {
      messages.push({ role: "assistant", content: row.message });
      continue;
    }
    if (!names.has(row.senderUserId)) names.set(row.senderUserId, userName(ctx, row.senderUserId));
    messages.push({ role: "user", content: `\`${names.get(row.senderUserId)}\` says:\n-----------------\n${row.message}\n` });
  }
  return messages;
}

// ------------------------------------------------------------------------------------------------
// Threads and runs

function threadFor(tx: DbHandle, now: Date, conversationId: number): ThreadRow {
  const existing = tx.select().from(aiThreads).where(eq(aiThreads.conversationId, conversationId)).get();
  if (existing) return existing;
  return tx.insert(aiThreads).values({ conversationId, createdAt: now }).returning().get();
}

function setRun(ctx: AppContext, runId: number, values: Partial<RunRow>) {
  ctx.db
    .update(aiRuns)
    .set({ ...values, updatedAt: ctx.clock.now() })
    .where(eq(aiRuns.id, runId))
    .run();
}

/** The run object of the reference's thread.run.* events. */
function runObject(thread: ThreadRow, run: { id: number }, status: string, toolCalls?: ChatCompletionMessageToolCall[]) {
  return {
    id: runIdOf(run),
    object: "thread.run",
    thread_id: threadIdOf(thread),
    status,
    required_action: toolCalls ? { type: "submit_tool_outputs", submit_tool_outputs: { tool_calls: toolCalls } } : null,
  };
}

/** The thread and run of a submit or cancel, for a party of the thread's conversation only. */
function partyRun(ctx: AppContext, current: CurrentUser, threadIdText: string, runIdText: string): { thread: ThreadRow; run: RunRow } {
  const threadId = parseId("thread", threadIdText);
  const runId = parseId("run", runIdText);
  const thread = threadId === undefined ? undefined : ctx.db.select().from(aiThreads).where(eq(aiThreads.id, threadId)).get();
  if (!thread) throw new NotFoundError("Thread");
  partyConversation(ctx, current, thread.conversationId);
  const run =
    runId === undefined
      ? undefined
      : ctx.db
          .select()
          .from(aiRuns)
          .where(and(eq(aiRuns.id, runId), eq(aiRuns.threadId, thread.id)))
          .get();
  if (!run) throw new NotFoundError("Run");
  return { thread, run };
}

// ------------------------------------------------------------------------------------------------
// The stream

type Send = (event: string, data: unknown) => void;

/** A server-sent events response whose body `produce` writes; it always ends with `done`. */
function sseResponse(
  produce: (send: Send, signal: AbortSignal) => Promise<void>,
  onDisconnect: () => void,
  abort: AbortController,
): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      let open = true;
      const send: Send = (event, data) => {
        if (!open) return;
        try {
          controller.enqueue(encoder.encode(`event: ${event}\ndata: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`));
        } catch {
          open = false;
        }
      };
      try {
        await produce(send, abort.signal);
      } finally {
        send("done", "[DONE]");
        open = false;
        try {
          controller.close();
        } catch {
          // the browser went away first
        }
      }
    },
    cancel() {
      onDisconnect();
    },
  });
  return new Response(body, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      // Proxies (nginx) must not hold events back.
      "x-accel-buffering": "no",
    },
  });
}

/**
 * One leg of a run: a streamed Chat Completions call relayed as the reference's events. Ends the
 * run as completed (the reply saved as an AI message) or requires_action (messages and tool calls
 * stored). Throws on provider failure or abort; the caller marks the run.
 */
async function streamLeg(
  ctx: AppContext,
  conversationId: number,
  thread: ThreadRow,
  run: RunRow,
  messages: ChatCompletionMessageParam[],
  send: Send,
  signal: AbortSignal,
) {
  const client = aiClient(ctx);
  const stream = await client.chat.completions.create(
    { model: modelFor(ctx, "othersModel"), messages, tools: CHAT_TOOLS, stream: true },
    { signal, timeout: REPLY_TIMEOUT_MS, maxRetries: 0 },
  );
  const threadId = threadIdOf(thread);
  const runId = runIdOf(run);
  const messageId = `msg_${run.id}_${messages.length}`;
  const stepId = `step_${run.id}_${messages.length}`;
  const messageObject = (status: string, value: string) => ({
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
        send("thread.message.created", messageObject("in_progress", ""));
      }
      text += delta.content;
      send("thread.message.delta", {
        id: messageId,
        object: "thread.message.delta",
        delta: { content: [{ index: 0, type: "text", text: { value: delta.content, annotations: [] } }] },
      });
    }
    for (const call of delta.tool_calls ?? []) {
      if (calls.length === 0) {
        send("thread.run.step.created", {
          id: stepId,
          object: "thread.run.step",
          type: "tool_calls",
          thread_id: threadId,
          run_id: runId,
          status: "in_progress",
          step_details: { type: "tool_calls", tool_calls: [] },
        });
      }
      const known = calls[call.index] ?? { id: "", name: "", arguments: "" };
      calls[call.index] = known;
      if (call.id) known.id = call.id;
      if (call.function?.name) known.name += call.function.name;
      const piece = call.function?.arguments ?? "";
      known.arguments += piece;
      send("thread.run.step.delta", {
        id: stepId,
        object: "thread.run.step.delta",
        delta: {
          step_details: {
            type: "tool_calls",
            tool_calls: [{ index: call.index, id: known.id, type: "function", function: { name: known.name, arguments: piece } }],
          },
        },
      });
    }
  }
  if (signal.aborted) throw new Error("cancelled");
  if (messageStarted) send("thread.message.completed", messageObject("completed", text));
  const toolCalls: ChatCompletionMessageToolCall[] = calls.filter(Boolean).map((call, index) => ({
    id: call.id || `call_${run.id}_${messages.length}_${index}`,
    type: "function",
    function: { name: call.name, arguments: call.arguments },
  }));
  const replySoFar = [run.replySoFar, text.trim()].filter(Boolean).join("\n\n");
  if (toolCalls.length > 0) {
    const waiting = [...messages, { role: "assistant", content: text || null, tool_calls: toolCalls } as ChatCompletionMessageParam];
    setRun(ctx, run.id, {
      status: "requires_action",
      messages: JSON.stringify(waiting),
      pendingToolCalls: JSON.stringify(toolCalls),
      replySoFar,
    });
    send("thread.run.requires_action", runObject(thread, run, "requires_action", toolCalls));
    return;
  }
  const now = ctx.clock.now();
  ctx.db.transaction((tx) => {
    // A cancel that came in while the last chunk was read wins: nothing is saved then.
    const finished = tx
      .update(aiRuns)
      .set({ status: "completed", messages: null, pendingToolCalls: null, replySoFar: "", updatedAt: now })
      .where(and(eq(aiRuns.id, run.id), eq(aiRuns.status, "in_progress")))
      .returning({ id: aiRuns.id })
      .all();
    if (finished.length === 0) throw new Error("cancelled");
    if (replySoFar) {
      tx.insert(conversationMessages).values({ conversationId, senderUserId: null, message: replySoFar, createdAt: now }).run();
      tx.update(conversations).set({ updatedAt: now }).where(eq(conversations.id, conversationId)).run();
    }
  });
  send("thread.run.completed", runObject(thread, run, "completed"));
}

/** Runs a leg inside a stream, turning failures into an `error` event and a failed (or cancelled) run. */
function streamRun(
  ctx: AppContext,
  conversationId: number,
  thread: ThreadRow,
  run: RunRow,
  messages: ChatCompletionMessageParam[],
  firstEvent: string,
): Response {
  const abort = new AbortController();
  const live = liveRunsOf(ctx);
  live.set(run.id, abort);
  const timer = setTimeout(() => abort.abort(), REPLY_TIMEOUT_MS);
  return sseResponse(
    async (send, signal) => {
      try {
        send(firstEvent, runObject(thread, run, firstEvent === "thread.run.created" ? "queued" : "in_progress"));
        await streamLeg(ctx, conversationId, thread, run, messages, send, signal);
      } catch (error) {
        const current = ctx.db.select({ status: aiRuns.status }).from(aiRuns).where(eq(aiRuns.id, run.id)).get();
        if (current?.status === "in_progress") setRun(ctx, run.id, { status: "failed", messages: null, pendingToolCalls: null });
        const cancelled = signal.aborted || current?.status === "cancelled";
        send("error", { message: cancelled ? "The reply was cancelled" : errorMessage(error) });
      } finally {
        clearTimeout(timer);
        live.delete(run.id);
      }
    },
    () => abort.abort(),
    abort,
  );
}

/** The provider's message keeps its status (e.g. "400 ..."), which the client shows as "Bad Request". */
function errorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.slice(0, 1000) || "The AI service did not answer";
}

// ------------------------------------------------------------------------------------------------
// The endpoints' work

/** POST /conversation/{id}/ai-reply: a party asks the AI to answer; the reply streams as SSE. */
export function aiReply(ctx: AppContext, current: CurrentUser, conversationId: number): Response {
  const conversation = partyConversation(ctx, current, conversationId);
  aiClient(ctx); // 503 "AI is not configured" before any stream starts
  const messages = chatMessages(ctx, current, conversation);
  const now = ctx.clock.now();
  const { thread, run } = ctx.db.transaction((tx) => {
    const thread = threadFor(tx, now, conversation.id);
    // A new reply supersedes a run still waiting for tool results.
    tx.update(aiRuns)
      .set({ status: "cancelled", messages: null, pendingToolCalls: null, updatedAt: now })
      .where(and(eq(aiRuns.threadId, thread.id), eq(aiRuns.status, "requires_action")))
      .run();
    const run = tx.insert(aiRuns).values({ threadId: thread.id, status: "in_progress", createdAt: now, updatedAt: now }).returning().get();
    return { thread, run };
  });
  return streamRun(ctx, conversation.id, thread, run, messages, "thread.run.created");
}

/** Checks the {toolCallId: {status} | result} body against the run's pending calls. */
function toolResults(body: unknown, pending: ChatCompletionMessageToolCall[]): Map<string, string> {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new ValidationError({ results: "must map each tool call id to its result" });
  const given = body as Record<string, unknown>;
  const errors: Record<string, string> = {};
  const results = new Map<string, string>();
  for (const key of Object.keys(given)) {
    if (!pending.some((call) => call.id === key)) errors[key.slice(0, 100)] = "is not a tool call of this run";
  }
  for (const call of pending) {
    const value = given[call.id];
    const text = value === undefined || value === null ? undefined : typeof value === "string" ? value : JSON.stringify(value);
    if (text === undefined) errors[call.id] = "needs a result";
    else if (text.length > MAX_TOOL_RESULT_LENGTH) errors[call.id] = `size must be at most ${MAX_TOOL_RESULT_LENGTH}`;
    else results.set(call.id, text);
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return results;
}

const NOT_WAITING = "This run is not waiting for tool results";

/** POST /ai/submit-tool-results/{threadId}/{runId}: continues the run with the results and streams the continuation. */
export function submitToolResults(ctx: AppContext, current: CurrentUser, threadIdText: string, runIdText: string, body: unknown): Response {
  const { thread, run } = partyRun(ctx, current, threadIdText, runIdText);
  if (run.status !== "requires_action" || !run.messages || !run.pendingToolCalls) throw new BadRequestError(NOT_WAITING);
  const results = toolResults(body, JSON.parse(run.pendingToolCalls) as ChatCompletionMessageToolCall[]);
  aiClient(ctx);
  // Claim the run, so a second submit (or a cancel) in between is refused.
  const claimed = ctx.db
    .update(aiRuns)
    .set({ status: "in_progress", pendingToolCalls: null, updatedAt: ctx.clock.now() })
    .where(and(eq(aiRuns.id, run.id), eq(aiRuns.status, "requires_action")))
    .returning({ id: aiRuns.id })
    .all();
  if (claimed.length === 0) throw new BadRequestError(NOT_WAITING);
  const messages = JSON.parse(run.messages) as ChatCompletionMessageParam[];
  for (const [id, content] of results) messages.push({ role: "tool", tool_call_id: id, content });
  return streamRun(ctx, thread.conversationId, thread, { ...run, status: "in_progress" }, messages, "thread.run.in_progress");
}

/** POST /ai/cancel-run/{threadId}/{runId}: ends a waiting (or streaming) run; nothing of it is saved. */
export function cancelRun(ctx: AppContext, current: CurrentUser, threadIdText: string, runIdText: string) {
  const { thread, run } = partyRun(ctx, current, threadIdText, runIdText);
  const cancelled = ctx.db
    .update(aiRuns)
    .set({ status: "cancelled", messages: null, pendingToolCalls: null, updatedAt: ctx.clock.now() })
    .where(and(eq(aiRuns.id, run.id), inArray(aiRuns.status, ["requires_action", "in_progress"])))
    .returning({ id: aiRuns.id })
    .all();
  if (cancelled.length === 0) throw new BadRequestError("This run has already finished");
  liveRunsOf(ctx).get(run.id)?.abort();
  return runObject(thread, run, "cancelled");
}
