/**
 * Answers that requests ask again and again and that change rarely, kept in memory for as long as
 * the version they were read at holds. Versions live in the database per account, user and
 * notebook (the cache-versions store): triggers raise them in the same transaction as any change
 * to what the answers are made of, by any process, so the next request on any process sees a new
 * version and reads again. One learner's review changes only that learner's version.
 *   sessions   who a session token belongs to (the account's version)
 *   notebooks  which notebooks a user may read (the user's access version)
 *   badges     every page's menu badges (the user's learning and access versions and their notebooks')
 *   stats      the statistics (/api/stats, /d/stats and its drawn HTML), at the badges' versions
 * The caller reads the version first and the answer after it, so a kept answer is never older than
 * its version.
 */
import type { AppContext } from "../context";
import { instanceSlot, instanceValue } from "../instance-state";

export type CacheName = "sessions" | "notebooks" | "badges" | "stats";

/** More entries than this (many sessions or users at once) and the cache starts over. */
const MAX_ENTRIES = 10_000;

interface Kept<T> {
  version: string;
  answer: T;
}

const caches = instanceSlot("kept answers", () => new Map<CacheName, Map<string, Kept<unknown>>>());

function cacheOf(ctx: AppContext, name: CacheName): Map<string, Kept<unknown>> {
  const byName = instanceValue(ctx, caches);
  let cache = byName.get(name);
  if (!cache) {
    cache = new Map();
    byName.set(name, cache);
  }
  return cache;
}

/** The answer kept for `key`, whatever its version (the caller compares `version`). */
export function keptAnswer<T>(ctx: AppContext, name: CacheName, key: string): Kept<T> | undefined {
  return cacheOf(ctx, name).get(key) as Kept<T> | undefined;
}

/**
 * Keeps an answer read at `version`. Answers are shared between requests, so they are frozen (one
 * level deep): callers must not change them.
 */
export function keepAnswer<T>(ctx: AppContext, name: CacheName, key: string, version: string | number, answer: T): T {
  const cache = cacheOf(ctx, name);
  if (cache.size >= MAX_ENTRIES) cache.clear();
  if (answer && typeof answer === "object") Object.freeze(answer);
  cache.set(key, { version: String(version), answer });
  return answer;
}

/** The answer for `key` while its version is still `version`; `load` reads it otherwise (read the version first). */
export function versionedAnswer<T>(ctx: AppContext, name: CacheName, key: string, version: string | number, load: () => T): T {
  const kept = keptAnswer<T>(ctx, name, key);
  if (kept && kept.version === String(version)) return kept.answer;
  return keepAnswer(ctx, name, key, version, load());
}

/** versionedAnswer for an answer read through the stores (read the version first). */
export async function versionedAnswerOf<T>(
  ctx: AppContext,
  name: CacheName,
  key: string,
  version: string | number,
  load: () => Promise<T>,
): Promise<T> {
  const kept = keptAnswer<T>(ctx, name, key);
  if (kept && kept.version === String(version)) return kept.answer;
  return keepAnswer(ctx, name, key, version, await load());
}

/** Forgets one kept answer (a session that ended). */
export function forgetAnswer(ctx: AppContext, name: CacheName, key: string) {
  cacheOf(ctx, name).delete(key);
}
