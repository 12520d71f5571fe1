/**
 * The one permission policy. Every /api endpoint and every page asks these predicates (through
 * the services) who may do what; nothing else decides.
 *
 * Actors, for a notebook: its owner (the creator of a personal notebook), a member of the circle
 * that owns it, a subscriber, a bazaar reader (anyone, signed out included, when the notebook is
 * in the bazaar), and, for the admin area, an admin.
 *
 *   read     owner, circle member, subscriber, bazaar reader
 *   edit     owner, circle member            (notes, links, images, recall settings, settings, index)
 *   recall   owner, circle member, subscriber (assimilate and recall its notes)
 *   share    owner, circle member            (to the bazaar)
 *   move     a notebook (into a circle, or its head note into another notebook): the creator,
 *            while they may edit it, into a circle they belong to or a notebook they may edit;
 *            never while others hold something of it (subscriptions, certificates, assessment
 *            attempts, its bazaar entry: the database refuses to delete those with it)
 *   move a note  within its notebook: its editors; into another notebook: whoever may edit both
 *   assess   any signed-in reader (an assessment starts from a bazaar card); answers are checked
 *            on the server
 *   answer keys  owner, circle member (a question's correct index; readers get questions without it)
 *   request certification  the creator, while they may edit it
 *   subscribe  a signed-in reader other than the owner (circle members too: circle notebooks are
 *              not offered for assimilation otherwise)
 *   administer an admin
 *
 * Related notes (a link's ends, inbound references, graph neighbours, export entries, search hits,
 * a tracker's or a conversation's note...): shown only to a reader who may read them now, asked
 * through readable-notes.ts (ReadableNotes, readableNoteIds); otherwise left out, or a placeholder
 * with no title or details. Losing access therefore takes effect at the next request.
 *
 * Refusals: 401 when nobody is signed in, 403 when signed in but not allowed (with a message that
 * names no title), 404 when the thing does not exist.
 */
import type { AppContext } from "../../context";
import { BadRequestError, ForbiddenError, UnauthorizedError } from "../errors";
import type { NotebookRow } from "../notes/rows";
import type { CurrentUser } from "../users";
import { isCircleMember, notebookTie, othersHoldNotebook } from "./memberships";
import { ReadableNotes } from "./readable-notes";
import { mayEdit, mayRead, mayRecall, type NotebookRole } from "./roles";

export type { NotebookRole } from "./roles";

/** The strongest role the caller has for a notebook. */
export async function notebookRole(
  ctx: AppContext,
  current: CurrentUser | undefined,
  notebook: Pick<NotebookRow, "id" | "creatorId" | "circleId">,
): Promise<NotebookRole> {
  if (current && notebook.circleId === null && notebook.creatorId === current.user.id) return "owner";
  // The other ties in one read, each looked up only when the one before it failed.
  const tie = await notebookTie(ctx, current?.user.id, notebook);
  return tie === "bazaar" ? "bazaar-reader" : tie;
}

export { mayEdit, mayRead, mayRecall };
export const mayShare = mayEdit;
/** A question's correct index: the notebook's editors (a reader holding it would pass the assessment). */
export const mayReadAnswerKeys = mayEdit;
/** Subscribing is for readers other than the owner (who learns own notes anyway). */
export const maySubscribe = (role: NotebookRole) => role !== "owner" && role !== "none";

/** What the note page and the graph need to know: edit, read only, or nothing. */
export type Access = "edit" | "read" | "none";

export async function notebookAccess(ctx: AppContext, current: CurrentUser | undefined, notebook: NotebookRow): Promise<Access> {
  const role = await notebookRole(ctx, current, notebook);
  return mayEdit(role) ? "edit" : mayRead(role) ? "read" : "none";
}

/** 401 for nobody signed in, 403 for a user without the right. */
function refuse(current: CurrentUser | undefined, message = "You are not allowed to access this notebook"): never {
  if (!current) throw new UnauthorizedError("Please sign in");
  throw new ForbiddenError(message);
}

/** Read access or the refusal; answers whether the caller may also edit. */
export async function authorizeRead(ctx: AppContext, current: CurrentUser | undefined, notebook: NotebookRow): Promise<Access> {
  const access = await notebookAccess(ctx, current, notebook);
  if (access === "none") refuse(current);
  return access;
}

export async function authorizeEdit(ctx: AppContext, current: CurrentUser | undefined, notebook: NotebookRow): Promise<void> {
  const role = await notebookRole(ctx, current, notebook);
  if (!mayEdit(role)) refuse(current, mayRead(role) ? "This notebook is read only for you" : undefined);
}

/** Assimilating and recalling a notebook's notes. */
export async function authorizeRecall(ctx: AppContext, current: CurrentUser | undefined, notebook: NotebookRow): Promise<void> {
  const role = await notebookRole(ctx, current, notebook);
  if (!mayRecall(role)) refuse(current, mayRead(role) ? "Add this notebook to your learning first" : undefined);
}

export async function authorizeShare(ctx: AppContext, current: CurrentUser | undefined, notebook: NotebookRow): Promise<void> {
  await authorizeEdit(ctx, current, notebook);
}

/** Moving a notebook into a circle: its creator only, while they may edit it, and only into a circle they belong to. */
export async function authorizeMoveToCircle(
  ctx: AppContext,
  current: CurrentUser | undefined,
  notebook: NotebookRow,
  circleId: number,
): Promise<void> {
  await authorizeEdit(ctx, current, notebook);
  if (notebook.creatorId !== current!.user.id) refuse(current, "Only the creator of a notebook can move it");
  if (!(await isCircleMember(ctx, circleId, current!.user.id))) refuse(current, "You can only move a notebook into a circle you belong to");
}

/**
 * Moving a note: within its notebook, its editors; into another notebook (with its descendants),
 * whoever may edit both; a notebook's head note (the whole notebook then joins the other one and
 * its own row goes), the notebook's creator while they may edit it, who may also edit the other
 * notebook, and only while nobody else holds something of the notebook (400 otherwise: their
 * subscriptions, certificates, assessment attempts and its bazaar entry are never deleted by a move).
 */
export async function authorizeMoveNote(
  ctx: AppContext,
  current: CurrentUser | undefined,
  move: { from: NotebookRow; to: NotebookRow; headNote: boolean },
): Promise<void> {
  await authorizeEdit(ctx, current, move.from);
  if (move.to.id !== move.from.id || move.headNote) await authorizeEdit(ctx, current, move.to);
  if (!move.headNote) return;
  if (move.from.creatorId !== current!.user.id) refuse(current, "Only the creator of a notebook can move it");
  if (await othersHoldNotebook(ctx, move.from.id)) {
    throw new BadRequestError(
      "This notebook cannot join another notebook: it is in the bazaar, or learners subscribe to it or hold its certificates or assessments",
    );
  }
}

export async function authorizeSubscribe(ctx: AppContext, current: CurrentUser | undefined, notebook: NotebookRow): Promise<void> {
  const role = await notebookRole(ctx, current, notebook);
  if (!current) refuse(current);
  // A rule about the request (the notes are offered already), not a permission: 400, not 403.
  if (role === "owner") throw new BadRequestError("You cannot add your own notebook to your learning: its notes are offered already");
  if (!maySubscribe(role)) refuse(current);
}

/** Taking a notebook's assessment: any signed-in reader. */
export async function authorizeAssessment(ctx: AppContext, current: CurrentUser | undefined, notebook: NotebookRow): Promise<void> {
  if (!current) refuse(current);
  await authorizeRead(ctx, current, notebook);
}

/** Asking an admin to make a notebook certifiable: its creator, while they may edit it. */
export async function authorizeCertificationRequest(
  ctx: AppContext,
  current: CurrentUser | undefined,
  notebook: NotebookRow,
): Promise<void> {
  await authorizeEdit(ctx, current, notebook);
  if (notebook.creatorId !== current!.user.id) refuse(current, "Only the creator of a notebook can ask for it to be certified");
}

/**
 * A conversation: its initiator and the other party (the subject's owner, or every member of the
 * owning circle) read and post in it, and only they use its AI runs.
 */
export async function authorizeConversationParty(
  ctx: AppContext,
  current: CurrentUser | undefined,
  conversation: { initiatorUserId: number; ownerUserId: number | null; ownerCircleId: number | null },
): Promise<void> {
  if (!current) refuse(current);
  const userId = current.user.id;
  const party =
    conversation.initiatorUserId === userId ||
    conversation.ownerUserId === userId ||
    (conversation.ownerCircleId !== null && (await isCircleMember(ctx, conversation.ownerCircleId, userId)));
  if (!party) throw new ForbiddenError("You are not part of this conversation");
}

/** A circle's page, notebooks and invitation: its members only. */
export async function authorizeCircleMember(ctx: AppContext, current: CurrentUser | undefined, circleId: number): Promise<void> {
  if (!current || !(await isCircleMember(ctx, circleId, current.user.id))) refuse(current, "You are not a member of this circle");
}

/** A record that belongs to one user (a memory tracker, a recall prompt, a subscription, a token). */
export function authorizeOwnRecord(current: CurrentUser | undefined, ownerUserId: number, what: string) {
  if (!current) refuse(current);
  if (ownerUserId !== current.user.id) throw new ForbiddenError(`This ${what} belongs to someone else`);
}

export const isAdmin = (current: CurrentUser | undefined) => Boolean(current?.account.admin);

/** The admin area. */
export function authorizeAdmin(current: CurrentUser | undefined, message = "Only an administrator can do this") {
  if (!isAdmin(current)) refuse(current, message);
}

/** An admin in the admin area (a notebook's dump) reads every notebook's notes; anyone else is refused. */
export function readableNotesInAdminArea(ctx: AppContext, current: CurrentUser | undefined): ReadableNotes {
  authorizeAdmin(current);
  return ReadableNotes.everything(ctx, current!);
}

export { readableNotebookIds } from "./memberships";
export { ReadableNotes, type Reader, readableNoteIds } from "./readable-notes";
export { RECALLABLE_NOTEBOOK_SQL } from "./roles";
