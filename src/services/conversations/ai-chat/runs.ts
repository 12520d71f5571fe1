/**
 * A conversation's AI thread and its runs, Engram's own rows (ai_threads, ai_runs): a run that
 * calls tools waits here with its messages and pending calls until submit-tool-results continues
 * it or cancel-run ends it. The abort switches of runs streaming now are instance state.
 */
import { and, eq } from "drizzle-orm";
import type { AppContext } from "../../../context";
import type { DbHandle } from "../../../db/connection";
import { aiRuns, aiThreads } from "../../../db/schema";
import { instanceSlot, instanceValue } from "../../../instance-state";
import { NotFoundError } from "../../errors";
import type { CurrentUser } from "../../users";
import { partyConversation } from "../conversation-service";
import type { RunObject, ToolCall } from "./events";

export type RunRow = typeof aiRuns.$inferSelect;
export type ThreadRow = typeof aiThreads.$inferSelect;

export const threadIdOf = (thread: { id: number }) => `thread_${thread.id}`;
export const runIdOf = (run: { id: number }) => `run_${run.id}`;
const parseId = (prefix: string, text: string) => {
  const match = new RegExp(`^(?:${prefix}_)?(\\d{1,15})$`).exec(text);
  return match ? Number(match[1]) : undefined;
};

/** Live runs' abort switches by run id, so cancel-run stops a stream in progress. */
const liveRuns = instanceSlot("live AI runs", () => new Map<number, AbortController>());
export const liveRunsOf = (ctx: AppContext) => instanceValue(ctx, liveRuns);

export function threadFor(tx: DbHandle, now: Date, conversationId: number): ThreadRow {
  const existing = tx.select().from(aiThreads).where(eq(aiThreads.conversationId, conversationId)).get();
  if (existing) return existing;
  return tx.insert(aiThreads).values({ conversationId, createdAt: now }).returning().get();
}

export function setRun(ctx: AppContext, runId: number, values: Partial<RunRow>) {
  ctx.db
    .update(aiRuns)
    .set({ ...values, updatedAt: ctx.clock.now() })
    .where(eq(aiRuns.id, runId))
    .run();
}

/** The run object of the reference's thread.run.* events. */
export function runObject(thread: ThreadRow, run: { id: number }, status: RunObject["status"], toolCalls?: ToolCall[]): RunObject {
  return {
    id: runIdOf(run),
    object: "thread.run",
    thread_id: threadIdOf(thread),
    status,
    required_action: toolCalls ? { type: "submit_tool_outputs", submit_tool_outputs: { tool_calls: toolCalls } } : null,
  };
}

/** The thread and run of a submit or cancel, for a party of the thread's conversation only. */
export function partyRun(
  ctx: AppContext,
  current: CurrentUser,
  threadIdText: string,
  runIdText: string,
): { thread: ThreadRow; run: RunRow } {
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
