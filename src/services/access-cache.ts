/**
 * Answers every request needs and that change rarely (who a session token belongs to, which
 * notebooks a user may read), kept in memory for as long as access_state's version stays the same.
 * Triggers (migration 0023) raise that version in the same transaction as any change to sessions,
 * accounts, users, notebooks' owners and circles, subscriptions or circle memberships, by any
 * process (the admin CLI too); the next request then finds a new version and starts an empty
 * cache. A request reads the one access_state row instead of the six lookups behind its answers.
 */
import type { Database } from "bun:sqlite";

/** More entries than this (many sessions or users at once) and the cache starts over. */
const MAX_ENTRIES = 10_000;

interface Cache {
  version: number;
  entries: Map<string, unknown>;
}

const caches = new WeakMap<Database, Cache>();

/**
 * The answer for `key` while nothing that decides access has changed; `load` computes it
 * otherwise. Answers are shared between requests, so they are frozen (one level deep): callers
 * must not change them.
 */
export function accessCached<T>(sqlite: Database, key: string, load: () => T): T {
  const version = sqlite.query<{ version: number }, []>("SELECT version FROM access_state WHERE id = 1").get()?.version;
  // No row (never expected): no caching at all rather than a cache that cannot be invalidated.
  if (version === undefined) return load();
  let cache = caches.get(sqlite);
  if (!cache || cache.version !== version || cache.entries.size >= MAX_ENTRIES) {
    cache = { version, entries: new Map() };
    caches.set(sqlite, cache);
  }
  if (cache.entries.has(key)) return cache.entries.get(key) as T;
  const answer = load();
  if (answer && typeof answer === "object") Object.freeze(answer);
  cache.entries.set(key, answer);
  return answer;
}
