/**
 * AI threads and runs (ai_threads, ai_runs): a conversation's thread, and each AI reply's run with
 * its state. A run's state is the one truth every process reads: cancelling it through any
 * process sets `cancelled`, and the process streaming it watches for that (cancelledAmong).
 * Every state change is guarded by the state it leaves, so a cancel and a completion never both win.
 */
import { and, eq, inArray } from "drizzle-orm";
import type { aiRuns, aiThreads } from "../../db/schema";
import { post } from "../conversations/conversations-store";
import { defineStore, read, type StoreOf, write } from "../define";
import { all, inIds, lockRow, one, run, type Session, type Step } from "../session";

export type AiRunRow = typeof aiRuns.$inferSelect;
export type AiThreadRow = typeof aiThreads.$inferSelect;

function* threadOf(s: Session, conversationId: number, now: number): Step<AiThreadRow> {
  const { aiThreads, conversations } = s.t;
  // Replies asked at once in one conversation take turns from here: the second finds the first's thread.
  yield* lockRow(s, conversations, conversationId);
  const existing = yield* one(s, s.db.select().from(aiThreads).where(eq(aiThreads.conversationId, conversationId)));
  if (existing) return existing;
  const [created] = yield* all(
    s,
    s.db
      .insert(aiThreads)
      .values({ conversationId, createdAt: new Date(now) })
      .returning(),
  );
  return created!;
}

/** A new run for a reply in the conversation (its thread made on first use); a run still waiting for tool results is superseded. */
export function* start(s: Session, conversationId: number, now: number): Step<{ thread: AiThreadRow; run: AiRunRow }> {
  const { aiRuns } = s.t;
  const thread = yield* threadOf(s, conversationId, now);
  yield* run(
    s,
    s.db
      .update(aiRuns)
      .set({ status: "cancelled", messages: null, pendingToolCalls: null, updatedAt: new Date(now) })
      .where(and(eq(aiRuns.threadId, thread.id), eq(aiRuns.status, "requires_action"))),
  );
  const [created] = yield* all(
    s,
    s.db
      .insert(aiRuns)
      .values({ threadId: thread.id, status: "in_progress", createdAt: new Date(now), updatedAt: new Date(now) })
      .returning(),
  );
  return { thread, run: created! };
}

export function* thread(s: Session, threadId: number): Step<AiThreadRow | undefined> {
  return yield* one(s, s.db.select().from(s.t.aiThreads).where(eq(s.t.aiThreads.id, threadId)));
}

/** The run of the thread, or undefined. */
export function* runOf(s: Session, threadId: number, runId: number): Step<AiRunRow | undefined> {
  const { aiRuns } = s.t;
  return yield* one(
    s,
    s.db
      .select()
      .from(aiRuns)
      .where(and(eq(aiRuns.id, runId), eq(aiRuns.threadId, threadId))),
  );
}

/** The streaming run now waits for tool results: its messages so far and the calls it waits for are kept. */
export function* waitForTools(
  s: Session,
  runId: number,
  waiting: { messages: string; pendingToolCalls: string; replySoFar: string },
  now: number,
): Step<void> {
  const { aiRuns } = s.t;
  yield* run(
    s,
    s.db
      .update(aiRuns)
      .set({ status: "requires_action", ...waiting, updatedAt: new Date(now) })
      .where(and(eq(aiRuns.id, runId), eq(aiRuns.status, "in_progress"))),
  );
}

/**
 * The run completed: its reply (if any) is saved as the AI's message of the conversation, in the
 * same unit. Answers false, saving nothing, when the run is no longer in progress (cancelled meanwhile).
 */
export function* complete(s: Session, runId: number, conversationId: number, reply: string, now: number): Step<boolean> {
  const { aiRuns } = s.t;
  const finished = yield* all(
    s,
    s.db
      .update(aiRuns)
      .set({ status: "completed", messages: null, pendingToolCalls: null, replySoFar: "", updatedAt: new Date(now) })
      .where(and(eq(aiRuns.id, runId), eq(aiRuns.status, "in_progress")))
      .returning({ id: aiRuns.id }),
  );
  if (finished.length === 0) return false;
  // The AI's message (no sender), posted by the conversations store's body in this unit.
  if (reply) yield* post(s, conversationId, null, reply, new Date(now));
  return true;
}

/** The stream failed: a run still in progress is marked failed. Answers the run's state now. */
export function* fail(s: Session, runId: number, now: number): Step<string | undefined> {
  const { aiRuns } = s.t;
  yield* run(
    s,
    s.db
      .update(aiRuns)
      .set({ status: "failed", messages: null, pendingToolCalls: null, updatedAt: new Date(now) })
      .where(and(eq(aiRuns.id, runId), eq(aiRuns.status, "in_progress"))),
  );
  const row = yield* one(s, s.db.select({ status: aiRuns.status }).from(aiRuns).where(eq(aiRuns.id, runId)));
  return row?.status;
}

/** A run waiting for tool results continues (claimed, so a second submit or a cancel in between is refused). Answers whether it did. */
export function* resume(s: Session, runId: number, now: number): Step<boolean> {
  const { aiRuns } = s.t;
  const claimed = yield* all(
    s,
    s.db
      .update(aiRuns)
      .set({ status: "in_progress", pendingToolCalls: null, updatedAt: new Date(now) })
      .where(and(eq(aiRuns.id, runId), eq(aiRuns.status, "requires_action")))
      .returning({ id: aiRuns.id }),
  );
  return claimed.length === 1;
}

/** Cancels a waiting or streaming run; answers false when it had already finished. */
export function* cancel(s: Session, runId: number, now: number): Step<boolean> {
  const { aiRuns } = s.t;
  const cancelled = yield* all(
    s,
    s.db
      .update(aiRuns)
      .set({ status: "cancelled", messages: null, pendingToolCalls: null, updatedAt: new Date(now) })
      .where(and(eq(aiRuns.id, runId), inArray(aiRuns.status, ["requires_action", "in_progress"])))
      .returning({ id: aiRuns.id }),
  );
  return cancelled.length === 1;
}

/** Which of these runs were cancelled (by any process): the streaming process stops them. */
export function* cancelledAmong(s: Session, runIds: number[]): Step<number[]> {
  if (runIds.length === 0) return [];
  const { aiRuns } = s.t;
  const rows = yield* all(
    s,
    s.db
      .select({ id: aiRuns.id })
      .from(aiRuns)
      .where(and(inIds(s, aiRuns.id, runIds), eq(aiRuns.status, "cancelled"))),
  );
  return rows.map((row) => row.id);
}

export const aiRunsStore = defineStore({
  start: write(start),
  thread: read(thread),
  runOf: read(runOf),
  waitForTools: write(waitForTools),
  complete: write(complete),
  fail: write(fail),
  resume: write(resume),
  cancel: write(cancel),
  cancelledAmong: read(cancelledAmong),
});
export type AiRunsStore = StoreOf<typeof aiRunsStore>;
