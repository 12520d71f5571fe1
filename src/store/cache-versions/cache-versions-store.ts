/**
 * Versions of what the servers keep in memory between requests (services/cache-versions.ts), per
 * scope and id. Triggers raise them in the same transaction as any change to what the kept answers
 * are made of (migration 0032), by any process; reading one is a primary-key lookup.
 */
import { and, eq, sql } from "drizzle-orm";
import { defineStore, read, type StoreOf } from "../define";
import { inJsonIds, one, prepared, type Session, type Step } from "../session";

export type CacheScope = "account" | "user-access" | "user-learning" | "user-recall" | "notebook";

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

/** The two tokens of a user's menu badges (see badgesToken). */
export interface BadgesTokens {
  /** The Assimilate and Messages badges: the user's learning and access versions and their notebooks'. */
  learning: string;
  /** The Recall badge and the statistics: the same and the user's reviews ("user-recall"). */
  reviews: string;
}

/**
 * What a user's menu badges are made of, as tokens: their learning, access and (for the Recall
 * badge and the statistics) review versions, and the versions of the notebooks they learn from
 * (summed: versions only grow, so the sum moves when any does).
 */
export function* badgesToken(s: Session, userId: number, notebookIds: readonly number[]): Step<BadgesTokens> {
  const row = yield* one(s, badgesVersions(s), { user: userId, ids: JSON.stringify(notebookIds) });
  const learning = `${row?.learning ?? 0}:${row?.access ?? 0}:${row?.notebooks ?? 0}`;
  return { learning, reviews: `${learning}:${row?.recall ?? 0}` };
}

/** The four parts of the badges' tokens in one statement, prepared (every page asks it). */
function badgesVersions(s: Session) {
  return prepared(s, "badges-versions", () => {
    const { cacheVersions: v } = s.t;
    const user = sql.placeholder("user");
    const ofUser = (scope: CacheScope) =>
      sql<number | null>`(SELECT ${v.version} FROM ${v} WHERE ${v.scope} = ${scope} AND ${v.id} = ${user})`;
    const inIds = inJsonIds(s, v.id);
    return (
      s.db
        .select({
          learning: ofUser("user-learning"),
          access: ofUser("user-access"),
          recall: ofUser("user-recall"),
          notebooks: sql<number | null>`(SELECT sum(${v.version}) FROM ${v} WHERE ${v.scope} = 'notebook' AND ${inIds})`,
        })
        // Named: PostgreSQL before 16 wants an alias on every subquery in FROM.
        .from(sql`(SELECT 1) AS one`)
    );
  });
}

export const cacheVersionsStore = defineStore({ version: read(version), badgesToken: read(badgesToken) });
export type CacheVersionsStore = StoreOf<typeof cacheVersionsStore>;
