/**
 * Answers that requests ask again and again and that change rarely, kept in memory for as long as
 * their version in cache_versions stays the same. Triggers (migration 0023) raise a version in the
 * same transaction as any change to what its answers are made of, by any process (the admin CLI
 * too); the next request then finds a new version and starts an empty cache. A request reads one
 * row instead of the lookups behind the answers.
 *   access    who a session token belongs to, which notebooks a user may read
 *   learning  every page's menu badges (notes to assimilate and to recall, unread conversations)
 */
import type { Database } from "bun:sqlite";

export type CacheName = "access" | "learning";

/** More entries than this (many sessions or users at once) and the cache starts over. */
const MAX_ENTRIES = 10_000;

interface Cache {
  version: number;
  entries: Map<string, unknown>;
}

const caches = new WeakMap<Database, Map<CacheName, Cache>>();

/**
 * The answer for `key` while nothing it is made of has changed; `load` computes it otherwise.
 * Answers are shared between requests, so they are frozen (one level deep): callers must not
 * change them.
 */
export function versionedCache<T>(sqlite: Database, name: CacheName, key: string, load: () => T): T {
  const version = sqlite.query<{ version: number }, [string]>("SELECT version FROM cache_versions WHERE name = ?").get(name)?.version;
  // No row (never expected): no caching at all rather than a cache that cannot be invalidated.
  if (version === undefined) return load();
  let byName = caches.get(sqlite);
  if (!byName) {
    byName = new Map();
    caches.set(sqlite, byName);
  }
  let cache = byName.get(name);
  if (!cache || cache.version !== version || cache.entries.size >= MAX_ENTRIES) {
    cache = { version, entries: new Map() };
    byName.set(name, cache);
  }
  if (cache.entries.has(key)) return cache.entries.get(key) as T;
  const answer = load();
  if (answer && typeof answer === "object") Object.freeze(answer);
  cache.entries.set(key, answer);
  return answer;
}
