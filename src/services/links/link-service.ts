import { eq, inArray } from "drizzle-orm";
import type { AppContext } from "../../context";
import { notebooks, notes } from "../../db/schema";
import { BadRequestError, ValidationError } from "../errors";
import { insertNote } from "../notes/insert-note";
import { noteTextSaved } from "../notes/note-changes";
import { realmOf } from "../notes/presenters";
import { descendantIds, getNote, getNotebook } from "../notes/rows";
import { orderForFirstChild, orderForLastChild } from "../notes/sibling-order";
import { authorizeEdit, authorizeMoveNote, authorizeRead } from "../policies";
import type { CurrentUser } from "../users";
import { isLinkType } from "./link-types";

/** A real link type ("no link" only moves notes, it never makes a link). */
function validLinkType(linkType: string): string {
  if (!isLinkType(linkType) || linkType === "no link") throw new ValidationError({ linkType: "must be one of the link types" });
  return linkType;
}

/** The source must be editable and the target readable, and they must differ. */
function sourceAndTarget(ctx: AppContext, current: CurrentUser, sourceId: number, targetId: number) {
  const source = getNote(ctx, sourceId);
  authorizeEdit(ctx, current, getNotebook(ctx, source.notebookId));
  const target = getNote(ctx, targetId);
  authorizeRead(ctx, current, getNotebook(ctx, target.notebookId));
  if (source.id === target.id) throw new BadRequestError("A note cannot be linked to itself");
  if (source.deletedAt || target.deletedAt) throw new BadRequestError("A deleted note cannot be linked");
  return { source, target };
}

/**
 * Creates a link note under the source: its title is the link type, its target the target note.
 * Answers the realms that changed: the source (a new child) and the target (a new reference).
 */
export function createLink(ctx: AppContext, current: CurrentUser, sourceId: number, targetId: number, linkType: string) {
  const type = validLinkType(linkType);
  const { source, target } = sourceAndTarget(ctx, current, sourceId, targetId);
  const now = ctx.clock.now();
  ctx.db.transaction((tx) => insertNote(tx, now, { lastChildOf: source }, { title: type, targetNoteId: target.id }));
  return [realmOf(ctx, current, getNote(ctx, source.id)), realmOf(ctx, current, getNote(ctx, target.id))];
}

/** Changes the type of a link note; answers the link's realm and its subject's. */
export function changeLinkType(ctx: AppContext, current: CurrentUser, linkId: number, linkType: string) {
  const type = validLinkType(linkType);
  const link = getNote(ctx, linkId);
  authorizeEdit(ctx, current, getNotebook(ctx, link.notebookId));
  if (link.targetNoteId === null) throw new BadRequestError("This note is not a link");
  ctx.db.update(notes).set({ title: type, updatedAt: ctx.clock.now() }).where(eq(notes.id, link.id)).run();
  noteTextSaved(ctx, link.id);
  const updated = getNote(ctx, link.id);
  return [realmOf(ctx, current, updated), ...(updated.parentId !== null ? [realmOf(ctx, current, getNote(ctx, updated.parentId))] : [])];
}

/**
 * Moves the source under the target (first or last child), as the policy's move rule allows
 * (authorizeMoveNote). A notebook's head note may be moved under a note of another notebook: its
 * whole notebook then joins that notebook.
 */
export function moveUnder(ctx: AppContext, current: CurrentUser, sourceId: number, targetId: number, asFirstChild: boolean) {
  const { source, target } = sourceAndTarget(ctx, current, sourceId, targetId);
  authorizeMoveNote(ctx, current, {
    from: getNotebook(ctx, source.notebookId),
    to: getNotebook(ctx, target.notebookId),
    headNote: source.parentId === null,
  });
  const subtree = [source.id, ...descendantIds(ctx, source.id)];
  if (subtree.includes(target.id)) throw new BadRequestError("A note cannot be moved under itself or its descendants");
  const oldParentId = source.parentId;
  const oldNotebookId = source.notebookId;
  ctx.db.transaction((tx) => {
    const order = asFirstChild ? orderForFirstChild(tx, target.id) : orderForLastChild(tx, target.id);
    tx.update(notes).set({ parentId: target.id, siblingOrder: order, updatedAt: ctx.clock.now() }).where(eq(notes.id, source.id)).run();
    if (target.notebookId !== oldNotebookId) {
      for (let i = 0; i < subtree.length; i += 500) {
        tx.update(notes)
          .set({ notebookId: target.notebookId })
          .where(inArray(notes.id, subtree.slice(i, i + 500)))
          .run();
      }
      // A head note brought its notebook along: the emptied notebook goes.
      if (oldParentId === null) tx.delete(notebooks).where(eq(notebooks.id, oldNotebookId)).run();
    }
  });
  const changed = [getNote(ctx, source.id), getNote(ctx, target.id)];
  if (oldParentId !== null && oldParentId !== target.id) changed.push(getNote(ctx, oldParentId));
  return changed.map((note) => realmOf(ctx, current, note));
}
