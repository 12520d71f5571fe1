/**
 * Answers to requests sent with a request id: the first request claims the id (one insert, so of
 * two processes receiving the same id at once only one claims it), works, and stores its answer;
 * a repeat reads that answer, or waits for it while the first is still working. Rows live a few
 * minutes. Times are milliseconds from the caller's clock.
 */
import { and, eq, isNull, lt, or } from "drizzle-orm";
import { defineStore, read, type StoreOf, write } from "../define";
import { all, one, run, type Session, type Step } from "../session";

export interface RequestKey {
  scope: string;
  userId: number;
  requestId: string;
}

/** claimed: do the work (then `finish` or `forget`); done: the first request's answer; working: another request is on it. */
export type Claim = { state: "claimed" } | { state: "done"; result: string } | { state: "working" };

function same(s: Session, key: RequestKey) {
  const r = s.t.requestResults;
  return and(eq(r.scope, key.scope), eq(r.userId, key.userId), eq(r.requestId, key.requestId))!;
}

/**
 * Claims the request id, unless a request with it answered within `keepMs` (done) or is working
 * since less than `staleMs` (working): a claim older than that is taken over (its process died).
 */
export function* claim(s: Session, key: RequestKey, now: number, keepMs: number, staleMs: number): Step<Claim> {
  const r = s.t.requestResults;
  // Forget answers too old to matter, and work abandoned by a process that stopped.
  yield* run(
    s,
    s.db
      .delete(r)
      .where(or(lt(r.createdAt, new Date(now - keepMs)), and(same(s, key), isNull(r.result), lt(r.createdAt, new Date(now - staleMs))))),
  );
  const inserted = yield* all(
    s,
    s.db
      .insert(r)
      .values({ ...key, result: null, createdAt: new Date(now) })
      .onConflictDoNothing()
      .returning({ scope: r.scope }),
  );
  if (inserted.length === 1) return { state: "claimed" };
  const existing = yield* one(s, s.db.select({ result: r.result }).from(r).where(same(s, key)));
  return existing?.result != null ? { state: "done", result: existing.result } : { state: "working" };
}

/** The stored answer: the JSON text, null while working, undefined when there is no row (the work failed). */
export function* answer(s: Session, key: RequestKey): Step<string | null | undefined> {
  const row = yield* one(s, s.db.select({ result: s.t.requestResults.result }).from(s.t.requestResults).where(same(s, key)));
  return row === undefined ? undefined : row.result;
}

/** Stores the claimed request's answer. */
export function* finish(s: Session, key: RequestKey, result: string): Step<void> {
  yield* run(s, s.db.update(s.t.requestResults).set({ result }).where(same(s, key)));
}

/** The claimed request failed: its id is free again (a repeat does the work). */
export function* forget(s: Session, key: RequestKey): Step<void> {
  yield* run(s, s.db.delete(s.t.requestResults).where(same(s, key)));
}

export const requestResultsStore = defineStore({ claim: write(claim), answer: read(answer), finish: write(finish), forget: write(forget) });
export type RequestResultsStore = StoreOf<typeof requestResultsStore>;
