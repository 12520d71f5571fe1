/**
 * The facts the policy reads: circle membership, subscriptions and the bazaar, each one indexed
 * lookup. List queries (recall, search) use the same rules as SQL, kept here beside them.
 */
import type { AppContext } from "../../context";
import { version } from "../../store/cache-versions/cache-versions-store";
import { versionedAnswer } from "../cache-versions";

const one = (ctx: AppContext, sql: string, ...params: number[]) =>
  ctx.sqlite.query<{ found: number }, number[]>(sql).get(...params) !== null;

export function isCircleMember(ctx: AppContext, circleId: number, userId: number): boolean {
  return one(ctx, "SELECT 1 AS found FROM circle_members WHERE circle_id = ? AND user_id = ?", circleId, userId);
}

export function isSubscribed(ctx: AppContext, userId: number, notebookId: number): boolean {
  return one(ctx, "SELECT 1 AS found FROM subscriptions WHERE user_id = ? AND notebook_id = ?", userId, notebookId);
}

export function isBazaarNotebook(ctx: AppContext, notebookId: number): boolean {
  return one(ctx, "SELECT 1 AS found FROM bazaar_notebooks WHERE notebook_id = ?", notebookId);
}

/**
 * Whether anything of the notebook is held by learners through it: a subscription, a certificate,
 * an assessment attempt or its bazaar entry. A notebook so held is never deleted (the database's
 * trigger notebooks_kept_while_held refuses it as well).
 */
export function othersHoldNotebook(ctx: AppContext, notebookId: number): boolean {
  return one(
    ctx,
    `SELECT 1 AS found WHERE EXISTS (SELECT 1 FROM subscriptions WHERE notebook_id = ?1)
       OR EXISTS (SELECT 1 FROM certificates WHERE notebook_id = ?1)
       OR EXISTS (SELECT 1 FROM assessment_attempts WHERE notebook_id = ?1)
       OR EXISTS (SELECT 1 FROM bazaar_notebooks WHERE notebook_id = ?1)`,
    notebookId,
  );
}

/** Which of a user's notebooks a list or search covers. */
export interface NotebookScope {
  /** Personal notebooks the user created. */
  own?: boolean;
  subscriptions?: boolean;
  circles?: boolean;
}

/** Each part of a scope: one indexed lookup of notebook ids for user ?1. */
const SCOPE_PARTS: Record<keyof NotebookScope, string> = {
  own: "SELECT id FROM notebooks WHERE creator_id = ?1 AND circle_id IS NULL",
  subscriptions: "SELECT notebook_id AS id FROM subscriptions WHERE user_id = ?1",
  circles: "SELECT id FROM notebooks WHERE circle_id IN (SELECT circle_id FROM circle_members WHERE user_id = ?1)",
};

/**
 * The ids of the notebooks a user may read, within the scope, in id order (through the access
 * cache: any change to notebooks' owners, subscriptions or memberships is seen by the next
 * request). Every search asks this:
 * the parts are looked up one by one and merged here (a UNION of them made SQLite build two
 * temporary b-trees, several times the cost of the lookups; a join costs twice the IN lookup).
 */
export function readableNotebookIds(ctx: AppContext, userId: number, scope: NotebookScope): readonly number[] {
  const parts = (Object.keys(SCOPE_PARTS) as (keyof NotebookScope)[]).filter((part) => scope[part]);
  // Read synchronously (SQLite) while the policy's callers are synchronous; the version first.
  const accessVersion = ctx.database.readNow((s) => version(s, "user-access", userId));
  return versionedAnswer(ctx, "notebooks", `${userId}:${parts.join(",")}`, accessVersion, () => {
    const ids = new Set<number>();
    for (const part of parts) {
      for (const row of ctx.sqlite.query<{ id: number }, [number]>(SCOPE_PARTS[part]).all(userId)) ids.add(row.id);
    }
    return [...ids].sort((a, b) => a - b);
  });
}
