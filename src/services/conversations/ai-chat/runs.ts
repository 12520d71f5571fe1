/**
 * A conversation's AI thread and its runs, Engram's own rows (the aiRuns store): a run that calls
 * tools waits there with its messages and pending calls until submit-tool-results continues it or
 * cancel-run ends it. A run's state in the database is the truth every process reads: a cancel
 * through any process sets it, and the process streaming the run watches for it. The abort
 * switches of runs streaming now are instance state.
 */
import type { AppContext } from "../../../context";
import { instanceSlot, instanceValue } from "../../../instance-state";
import type { AiRunRow, AiThreadRow } from "../../../store/ai-runs/ai-runs-store";
import { NotFoundError } from "../../errors";
import type { CurrentUser } from "../../users";
import { partyConversation } from "../conversation-service";
import type { RunObject, ToolCall } from "./events";

export type RunRow = AiRunRow;
export type ThreadRow = AiThreadRow;

export const threadIdOf = (thread: { id: number }) => `thread_${thread.id}`;
export const runIdOf = (run: { id: number }) => `run_${run.id}`;
const parseId = (prefix: string, text: string) => {
  const match = new RegExp(`^(?:${prefix}_)?(\\d{1,15})$`).exec(text);
  return match ? Number(match[1]) : undefined;
};

/**
 * The runs this process streams, with their abort switches. A cancel through this process aborts
 * at once; a cancel through another process sets the run's state in the database, which a watcher
 * reads every 250 ms (config.runWatchMs) while any run streams here (no watcher when none does), and at once
 * when the database wakes it (PostgreSQL's NOTIFY on a run's state change).
 */
interface LiveRuns {
  runs: Map<number, AbortController>;
  watcher?: ReturnType<typeof setInterval>;
  stopWaking?: () => void;
}
const liveRuns = instanceSlot<LiveRuns>("live AI runs", () => ({ runs: new Map() }));

function abortCancelledRuns(ctx: AppContext, live: LiveRuns) {
  if (live.runs.size === 0) return;
  ctx.stores.aiRuns
    .cancelledAmong([...live.runs.keys()])
    .then((cancelled) => {
      for (const id of cancelled) live.runs.get(id)?.abort();
    })
    .catch((error) => console.error("Watching AI runs for cancellation failed:", error));
}

/** A run streamed by this process: aborted when it is cancelled, here or through another process. */
export function watchRun(ctx: AppContext, runId: number, abort: AbortController) {
  const live = instanceValue(ctx, liveRuns);
  live.runs.set(runId, abort);
  live.watcher ??= setInterval(() => abortCancelledRuns(ctx, live), ctx.config.runWatchMs);
  live.watcher.unref?.();
  live.stopWaking ??= ctx.database.onWake("ai-runs", () => abortCancelledRuns(ctx, live));
}

export function unwatchRun(ctx: AppContext, runId: number) {
  const live = instanceValue(ctx, liveRuns);
  live.runs.delete(runId);
  if (live.runs.size === 0 && live.watcher) {
    clearInterval(live.watcher);
    live.watcher = undefined;
    live.stopWaking?.();
    live.stopWaking = undefined;
  }
}

/** Stops the run's stream at once when this process streams it. */
export function abortLiveRun(ctx: AppContext, runId: number) {
  instanceValue(ctx, liveRuns).runs.get(runId)?.abort();
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
export async function partyRun(
  ctx: AppContext,
  current: CurrentUser,
  threadIdText: string,
  runIdText: string,
): Promise<{ thread: ThreadRow; run: RunRow }> {
  const threadId = parseId("thread", threadIdText);
  const runId = parseId("run", runIdText);
  const thread = threadId === undefined ? undefined : await ctx.stores.aiRuns.thread(threadId);
  if (!thread) throw new NotFoundError("Thread");
  await partyConversation(ctx, current, thread.conversationId);
  const run = runId === undefined ? undefined : await ctx.stores.aiRuns.runOf(thread.id, runId);
  if (!run) throw new NotFoundError("Run");
  return { thread, run };
}
