import type { AppContext } from "../../context";
import { BadRequestError, ValidationError } from "../errors";
import { noteTextSaved } from "../notes/note-changes";
import { noteRealm, realmOf } from "../notes/presenters";
import { requireNoteWithNotebook } from "../notes/rows";
import { authorizeEdit, authorizeMoveNote, authorizeRead } from "../policies";
import type { CurrentUser } from "../users";
import { isLinkType } from "./link-types";

/** A real link type ("no link" only moves notes, it never makes a link). */
function validLinkType(linkType: string): string {
  if (!isLinkType(linkType) || linkType === "no link") throw new ValidationError({ linkType: "must be one of the link types" });
  return linkType;
}

/** The source must be editable and the target readable, and they must differ. */
async function sourceAndTarget(ctx: AppContext, current: CurrentUser, sourceId: number, targetId: number) {
  const source = await requireNoteWithNotebook(ctx, sourceId);
  await authorizeEdit(ctx, current, source.notebook);
  const target = await requireNoteWithNotebook(ctx, targetId);
  await authorizeRead(ctx, current, target.notebook);
  if (source.note.id === target.note.id) throw new BadRequestError("A note cannot be linked to itself");
  if (source.note.deletedAt || target.note.deletedAt) throw new BadRequestError("A deleted note cannot be linked");
  return { source, target };
}

/**
 * Creates a link note under the source: its title is the link type, its target the target note.
 * Answers the realms that changed: the source (a new child) and the target (a new reference).
 */
export async function createLink(ctx: AppContext, current: CurrentUser, sourceId: number, targetId: number, linkType: string) {
  const type = validLinkType(linkType);
  const { source, target } = await sourceAndTarget(ctx, current, sourceId, targetId);
  await ctx.stores.notes.addNote(ctx.clock.now(), { lastChildOf: source.note }, { title: type, targetNoteId: target.note.id });
  return Promise.all([realmOf(ctx, current, source.note), realmOf(ctx, current, target.note)]);
}

/** Changes the type of a link note; answers the link's realm and its subject's. */
export async function changeLinkType(ctx: AppContext, current: CurrentUser, linkId: number, linkType: string) {
  const type = validLinkType(linkType);
  const { note: link, notebook } = await requireNoteWithNotebook(ctx, linkId);
  await authorizeEdit(ctx, current, notebook);
  if (link.targetNoteId === null) throw new BadRequestError("This note is not a link");
  await ctx.stores.notes.setTitle(link.id, type, ctx.clock.now());
  noteTextSaved(ctx, link.id);
  return Promise.all([link.id, ...(link.parentId !== null ? [link.parentId] : [])].map((id) => noteRealm(ctx, current, id)));
}

/**
 * Moves the source under the target (first or last child), as the policy's move rule allows
 * (authorizeMoveNote). A notebook's head note may be moved under a note of another notebook: its
 * whole notebook then joins that notebook.
 */
export async function moveUnder(ctx: AppContext, current: CurrentUser, sourceId: number, targetId: number, asFirstChild: boolean) {
  const { source, target } = await sourceAndTarget(ctx, current, sourceId, targetId);
  await authorizeMoveNote(ctx, current, { from: source.notebook, to: target.notebook, headNote: source.note.parentId === null });
  const subtree = [source.note.id, ...(await ctx.stores.notes.descendantIds(source.note.id))];
  if (subtree.includes(target.note.id)) throw new BadRequestError("A note cannot be moved under itself or its descendants");
  await ctx.stores.notes.moveUnder(source.note, target.note, asFirstChild, ctx.clock.now());
  const oldParentId = source.note.parentId;
  const changed = [source.note.id, target.note.id];
  if (oldParentId !== null && oldParentId !== target.note.id) changed.push(oldParentId);
  return Promise.all(changed.map((id) => noteRealm(ctx, current, id)));
}
