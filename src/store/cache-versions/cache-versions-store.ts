/**
 * Versions of what the servers keep in memory between requests (services/cache-versions.ts), per
 * scope and id. Triggers raise them in the same transaction as any change to what the kept answers
 * are made of (migration 0027), by any process; reading one is a primary-key lookup.
 */
import { and, eq, inArray, or, sql } from "drizzle-orm";
import { defineStore, read, type StoreOf } from "../define";
import { all, one, prepared, type Session, type Step } from "../session";

export type CacheScope = "account" | "user-access" | "user-learning" | "notebook";

/** The version of one scope's id (0 before anything raised it). */
export function* version(s: Session, scope: CacheScope, id: number): Step<number> {
  const { cacheVersions: v } = s.t;
  const query = prepared(s, "cache-version", () =>
    s.db
      .select({ version: v.version })
      .from(v)
      .where(and(eq(v.scope, sql.placeholder("scope")), eq(v.id, sql.placeholder("id")))),
  );
  const row = yield* one(s, query, { scope, id });
  return row?.version ?? 0;
}

/**
 * What a user's menu badges are made of, as one token: their learning and access versions and the
 * versions of the notebooks they learn from (summed: versions only grow, so the sum moves when any does).
 */
export function* badgesToken(s: Session, userId: number, notebookIds: readonly number[]): Step<string> {
  const { cacheVersions: v } = s.t;
  const rows = yield* all(
    s,
    s.db
      .select({ scope: v.scope, version: v.version })
      .from(v)
      .where(
        or(
          and(inArray(v.scope, ["user-learning", "user-access"]), eq(v.id, userId)),
          notebookIds.length ? and(eq(v.scope, "notebook"), inArray(v.id, [...notebookIds])) : undefined,
        ),
      ),
  );
  const of = (scope: CacheScope) => rows.filter((row) => row.scope === scope).reduce((sum, row) => sum + row.version, 0);
  return `${of("user-learning")}:${of("user-access")}:${of("notebook")}`;
}

export const cacheVersionsStore = defineStore({ version: read(version), badgesToken: read(badgesToken) });
export type CacheVersionsStore = StoreOf<typeof cacheVersionsStore>;
