import type { AppContext } from "../../context";
import { ForbiddenError, UnauthorizedError } from "../errors";
import type { CurrentUser } from "../users";
import type { NotebookRow } from "./rows";

export type Access = "edit" | "read" | "none";

/**
 * What a user may do with a notebook's notes. For now only its creator reads and edits it;
 * circles, subscriptions and the bazaar widen this as they land.
 */
export function notebookAccess(_ctx: AppContext, current: CurrentUser | undefined, notebook: NotebookRow): Access {
  if (current && notebook.creatorId === current.user.id) return "edit";
  return "none";
}

/** 401 for nobody signed in, 403 for a user without the access. */
function refuse(current: CurrentUser | undefined): never {
  if (!current) throw new UnauthorizedError("Please sign in");
  throw new ForbiddenError("You are not allowed to access this notebook");
}

export function authorizeRead(ctx: AppContext, current: CurrentUser | undefined, notebook: NotebookRow): Access {
  const access = notebookAccess(ctx, current, notebook);
  if (access === "none") refuse(current);
  return access;
}

export function authorizeEdit(ctx: AppContext, current: CurrentUser | undefined, notebook: NotebookRow) {
  if (notebookAccess(ctx, current, notebook) !== "edit") refuse(current);
}
