/**
 * Requests that must happen once per request id (a double-submitted "create notebook" makes one
 * notebook), across every process on the database: the first request with an id claims it in the
 * database and stores its answer; a repeat, on any process, answers the same (waiting while the
 * first is still working). Within one process a repeat joins the first one's promise at once.
 * Requests without an id are never merged.
 */
import type { AppContext } from "../context";
import type { RequestKey } from "../store/request-results/request-results-store";

/** How long an answer is kept for repeats. */
const KEEP_MS = 10 * 60 * 1000;
/** A claim whose request has not answered for this long belongs to a process that stopped: taken over. */
const STALE_MS = 60 * 1000;
/** How often a repeat looks for the first request's answer, and for how long at most. */
const POLL_MS = 50;
const WAIT_MS = STALE_MS;

export function oncePerRequestId<T>(ctx: AppContext, scope: string) {
  const inProgress = new Map<string, Promise<T>>();
  const store = ctx.stores.requestResults;

  async function answerOnce(key: RequestKey, run: () => Promise<T>): Promise<T> {
    for (const deadline = Date.now() + WAIT_MS; ; ) {
      const claim = await store.claim(key, Date.now(), KEEP_MS, STALE_MS);
      if (claim.state === "done") return JSON.parse(claim.result) as T;
      if (claim.state === "claimed") {
        let result: T;
        try {
          result = await run();
        } catch (error) {
          await store.forget(key);
          throw error;
        }
        await store.finish(key, JSON.stringify(result));
        return result;
      }
      // Another process is working on it: its answer, or (when it failed) our own turn.
      while (Date.now() < deadline) {
        await Bun.sleep(POLL_MS);
        const stored = await store.answer(key);
        if (stored === undefined) break;
        if (stored !== null) return JSON.parse(stored) as T;
      }
      if (Date.now() >= deadline) throw new Error(`The first request with this id (${scope}) did not answer in time`);
    }
  }

  return (userId: number, requestId: string | undefined, run: () => Promise<T>): Promise<T> => {
    if (!requestId) return run();
    const local = `${userId}:${requestId}`;
    const known = inProgress.get(local);
    if (known !== undefined) return known;
    const result = answerOnce({ scope, userId, requestId }, run);
    inProgress.set(local, result);
    const done = () => inProgress.delete(local);
    result.then(done, done);
    return result;
  };
}
