/**
 * The facts the policy reads: circle membership, subscriptions and the bazaar, each one indexed
 * lookup of the sharing store (src/store/sharing/access.ts). The policy's predicates stay
 * synchronous (every service asks them), so these run the store's bodies as synchronous units.
 */
import type { AppContext } from "../../context";
import { version } from "../../store/cache-versions/cache-versions-store";
import type { NotebookScope, NotebookTie, ScopePart } from "../../store/sharing/access";
import * as access from "../../store/sharing/access";
import { versionedAnswer } from "../cache-versions";

export type { NotebookScope } from "../../store/sharing/access";

export function isCircleMember(ctx: AppContext, circleId: number, userId: number): boolean {
  return ctx.database.readNow((s) => access.isCircleMember(s, circleId, userId));
}

export function isSubscribed(ctx: AppContext, userId: number, notebookId: number): boolean {
  return ctx.database.readNow((s) => access.isSubscribed(s, userId, notebookId));
}

export function isBazaarNotebook(ctx: AppContext, notebookId: number): boolean {
  return ctx.database.readNow((s) => access.isBazaarNotebook(s, notebookId));
}

/** The first tie of a user (undefined: a visitor) to a notebook they did not create personally, in one read. */
export function notebookTie(ctx: AppContext, userId: number | undefined, notebook: { id: number; circleId: number | null }): NotebookTie {
  return ctx.database.readNow((s) => access.notebookTie(s, userId, notebook));
}

/**
 * Whether anything of the notebook is held by learners through it: a subscription, a certificate,
 * an assessment attempt or its bazaar entry. A notebook so held is never deleted (the database's
 * trigger notebooks_kept_while_held refuses it as well).
 */
export function othersHoldNotebook(ctx: AppContext, notebookId: number): boolean {
  return ctx.database.readNow((s) => access.othersHoldNotebook(s, notebookId));
}

const SCOPE_PARTS: readonly ScopePart[] = ["own", "subscriptions", "circles"];

/**
 * The ids of the notebooks a user may read, within the scope, in id order (through the access
 * cache: any change to notebooks' owners, subscriptions or memberships is seen by the next
 * request). Every search asks this.
 */
export function readableNotebookIds(ctx: AppContext, userId: number, scope: NotebookScope): readonly number[] {
  const parts = SCOPE_PARTS.filter((part) => scope[part]);
  // Read synchronously (SQLite) while the policy's callers are synchronous; the version first.
  const accessVersion = ctx.database.readNow((s) => version(s, "user-access", userId));
  return versionedAnswer(ctx, "notebooks", `${userId}:${parts.join(",")}`, accessVersion, () =>
    ctx.database.readNow((s) => access.reachableNotebookIds(s, userId, parts)),
  );
}
