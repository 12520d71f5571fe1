import type { AppContext } from "../../context";
import { NotFoundError, ValidationError } from "../errors";
import { addNotebook, type NotebooksJson, presentLiveNotebooks } from "../notebooks";
import { type CircleJson, type NotebookJson, presentNotebook } from "../notes/presenters";
import { requireNotebook } from "../notes/rows";
import { authorizeCircleMember, authorizeMoveToCircle } from "../policies";
import { stripControlCharacters } from "../text-input";
import type { CurrentUser } from "../users";

/** CircleForUserView: a circle as its members see it. */
export interface CircleForUserViewJson {
  id: number;
  name: string;
  invitationCode: string;
  notebooks: NotebooksJson;
  members: { name: string }[];
}

const MAX_CIRCLE_NAME = 255;
/** 20 characters of a 32-letter alphabet: 100 random bits, within the reference's 10 to 20 characters. */
const INVITATION_CODE_LENGTH = 20;
const CODE_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789";

export function newInvitationCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(INVITATION_CODE_LENGTH));
  return Array.from(bytes, (b) => CODE_ALPHABET[b % CODE_ALPHABET.length]).join("");
}

async function getCircle(ctx: AppContext, circleId: number) {
  const circle = await ctx.stores.sharing.circleById(circleId);
  if (!circle) throw new NotFoundError("Circle");
  return circle;
}

function validCircleName(name: unknown): string {
  const trimmed = typeof name === "string" ? stripControlCharacters(name).trim() : "";
  if (trimmed.length < 1 || trimmed.length > MAX_CIRCLE_NAME) {
    throw new ValidationError({ name: `size must be between 1 and ${MAX_CIRCLE_NAME}` });
  }
  return trimmed;
}

/** The user's circles, in the order they were made. */
export function circlesOf(ctx: AppContext, current: CurrentUser): Promise<CircleJson[]> {
  return ctx.stores.sharing.circlesOf(current.user.id);
}

/** "Create a new circle": the creator is its first member. */
export async function createCircle(ctx: AppContext, current: CurrentUser, name: unknown): Promise<CircleJson> {
  const circleName = validCircleName(name);
  const circle = await ctx.stores.sharing.createCircle(circleName, newInvitationCode(), [current.user.id], ctx.clock.now());
  return { id: circle.id, name: circle.name };
}

/** A circle for its members: notebooks, members (in joining order) and the invitation code. */
export async function showCircle(ctx: AppContext, current: CurrentUser | undefined, circleId: number): Promise<CircleForUserViewJson> {
  const circle = await getCircle(ctx, circleId);
  await authorizeCircleMember(ctx, current, circle.id);
  const members = await ctx.stores.sharing.memberNames(circle.id);
  return {
    id: circle.id,
    name: circle.name,
    invitationCode: circle.invitationCode,
    notebooks: { notebooks: await presentLiveNotebooks(ctx, current, { circleId: circle.id }), subscriptions: [] },
    members,
  };
}

/** "Join": a wrong code is a field error; joining again changes nothing. */
export async function joinCircle(ctx: AppContext, current: CurrentUser, invitationCode: unknown): Promise<CircleJson> {
  const code = typeof invitationCode === "string" ? invitationCode.trim() : "";
  const circle = code ? await ctx.stores.sharing.circleByInvitation(code) : undefined;
  if (!circle) throw new ValidationError({ invitationCode: "This invitation code does not match any circle" });
  await ctx.stores.sharing.join(circle.id, current.user.id, ctx.clock.now());
  return { id: circle.id, name: circle.name };
}

/** "Add New Notebook In This Circle": answers the head note to go to. */
export async function createNotebookInCircle(
  ctx: AppContext,
  current: CurrentUser,
  circleId: number,
  input: { newTitle: string; wikidataId?: string },
) {
  const circle = await getCircle(ctx, circleId);
  await authorizeCircleMember(ctx, current, circle.id);
  const { noteId } = await addNotebook(ctx, current, input, circle.id);
  return { noteId };
}

/** "Move to ...": the creator moves a notebook into (or between) circles they belong to. */
export async function moveNotebookToCircle(
  ctx: AppContext,
  current: CurrentUser | undefined,
  notebookId: number,
  circleId: number,
): Promise<NotebookJson> {
  const notebook = await requireNotebook(ctx, notebookId);
  const circle = await getCircle(ctx, circleId);
  await authorizeMoveToCircle(ctx, current, notebook, circle.id);
  const moved = await ctx.stores.sharing.moveNotebookToCircle(notebook.id, circle.id, ctx.clock.now());
  if (!moved) throw new NotFoundError("Notebook");
  return presentNotebook(ctx, current, moved);
}

/** A circle member's circle by invitation code, for the join page (the name only; nothing private). */
export async function circleNameForInvitation(ctx: AppContext, invitationCode: string): Promise<string | undefined> {
  return (await ctx.stores.sharing.circleByInvitation(invitationCode))?.name;
}
