/**
 * The facts the policy reads: circle membership, subscriptions and the bazaar, each one indexed
 * lookup of the sharing store (src/store/sharing/access.ts), awaited like every other read.
 */
import type { AppContext } from "../../context";
import type { NotebookScope, NotebookTie, ScopePart } from "../../store/sharing/access";
import { versionedAnswerOf } from "../cache-versions";

export type { NotebookScope } from "../../store/sharing/access";

export function isCircleMember(ctx: AppContext, circleId: number, userId: number): Promise<boolean> {
  return ctx.stores.sharing.isCircleMember(circleId, userId);
}

/** The first tie of a user (undefined: a visitor) to a notebook they did not create personally, in one read. */
export function notebookTie(
  ctx: AppContext,
  userId: number | undefined,
  notebook: { id: number; circleId: number | null },
): Promise<NotebookTie> {
  return ctx.stores.sharing.notebookTie(userId, notebook);
}

/**
 * Whether anything of the notebook is held by learners through it: a subscription, a certificate,
 * an assessment attempt or its bazaar entry. A notebook so held is never deleted (the database's
 * trigger notebooks_kept_while_held refuses it as well).
 */
export function othersHoldNotebook(ctx: AppContext, notebookId: number): Promise<boolean> {
  return ctx.stores.sharing.othersHoldNotebook(notebookId);
}

const SCOPE_PARTS: readonly ScopePart[] = ["own", "subscriptions", "circles"];

/**
 * The ids of the notebooks a user may read, within the scope, in id order (through the access
 * cache: any change to notebooks' owners, subscriptions or memberships is seen by the next
 * request). Every search asks this.
 */
export async function readableNotebookIds(ctx: AppContext, userId: number, scope: NotebookScope): Promise<readonly number[]> {
  // The version first, so a kept answer is never older than its version.
  const accessVersion = await ctx.stores.cacheVersions.version("user-access", userId);
  return readableNotebookIdsAt(ctx, userId, scope, accessVersion);
}

/** readableNotebookIds with the user's access version read already (in the caller's snapshot). */
export function readableNotebookIdsAt(
  ctx: AppContext,
  userId: number,
  scope: NotebookScope,
  accessVersion: number,
): Promise<readonly number[]> {
  const parts = SCOPE_PARTS.filter((part) => scope[part]);
  return versionedAnswerOf(ctx, "notebooks", `${userId}:${parts.join(",")}`, accessVersion, () =>
    ctx.stores.sharing.reachableNotebookIds(userId, parts),
  );
}
