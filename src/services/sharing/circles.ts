import { eq } from "drizzle-orm";
import type { AppContext } from "../../context";
import { circleMembers, circles, notebooks, users } from "../../db/schema";
import { NotFoundError, ValidationError } from "../errors";
import { addNotebook, type NotebooksJson, presentLiveNotebooks } from "../notebooks";
import { type CircleJson, type NotebookJson, presentNotebook } from "../notes/presenters";
import { getNotebook } from "../notes/rows";
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

function getCircle(ctx: AppContext, circleId: number) {
  const circle = ctx.db.select().from(circles).where(eq(circles.id, circleId)).get();
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
export function circlesOf(ctx: AppContext, current: CurrentUser): CircleJson[] {
  return ctx.db
    .select({ id: circles.id, name: circles.name })
    .from(circles)
    .innerJoin(circleMembers, eq(circleMembers.circleId, circles.id))
    .where(eq(circleMembers.userId, current.user.id))
    .orderBy(circles.id)
    .all();
}

/** "Create a new circle": the creator is its first member. */
export function createCircle(ctx: AppContext, current: CurrentUser, name: unknown): CircleJson {
  const circleName = validCircleName(name);
  const now = ctx.clock.now();
  return ctx.db.transaction((tx) => {
    const circle = tx.insert(circles).values({ name: circleName, invitationCode: newInvitationCode(), createdAt: now }).returning().get();
    tx.insert(circleMembers).values({ circleId: circle.id, userId: current.user.id, joinedAt: now }).run();
    return { id: circle.id, name: circle.name };
  });
}

/** A circle for its members: notebooks, members (in joining order) and the invitation code. */
export async function showCircle(ctx: AppContext, current: CurrentUser | undefined, circleId: number): Promise<CircleForUserViewJson> {
  const circle = getCircle(ctx, circleId);
  authorizeCircleMember(ctx, current, circle.id);
  const members = ctx.db
    .select({ name: users.name })
    .from(circleMembers)
    .innerJoin(users, eq(users.id, circleMembers.userId))
    .where(eq(circleMembers.circleId, circle.id))
    .orderBy(circleMembers.joinedAt, circleMembers.userId)
    .all();
  return {
    id: circle.id,
    name: circle.name,
    invitationCode: circle.invitationCode,
    notebooks: { notebooks: await presentLiveNotebooks(ctx, current, { circleId: circle.id }), subscriptions: [] },
    members,
  };
}

/** "Join": a wrong code is a field error; joining again changes nothing. */
export function joinCircle(ctx: AppContext, current: CurrentUser, invitationCode: unknown): CircleJson {
  const code = typeof invitationCode === "string" ? invitationCode.trim() : "";
  const circle = code ? ctx.db.select().from(circles).where(eq(circles.invitationCode, code)).get() : undefined;
  if (!circle) throw new ValidationError({ invitationCode: "This invitation code does not match any circle" });
  ctx.db
    .insert(circleMembers)
    .values({ circleId: circle.id, userId: current.user.id, joinedAt: ctx.clock.now() })
    .onConflictDoNothing()
    .run();
  return { id: circle.id, name: circle.name };
}

/** "Add New Notebook In This Circle": answers the head note to go to. */
export async function createNotebookInCircle(
  ctx: AppContext,
  current: CurrentUser,
  circleId: number,
  input: { newTitle: string; wikidataId?: string },
) {
  const circle = getCircle(ctx, circleId);
  authorizeCircleMember(ctx, current, circle.id);
  const { noteId } = await addNotebook(ctx, current, input, circle.id);
  return { noteId };
}

/** "Move to ...": the creator moves a notebook into (or between) circles they belong to. */
export function moveNotebookToCircle(
  ctx: AppContext,
  current: CurrentUser | undefined,
  notebookId: number,
  circleId: number,
): NotebookJson {
  const notebook = getNotebook(ctx, notebookId);
  const circle = getCircle(ctx, circleId);
  authorizeMoveToCircle(ctx, current, notebook, circle.id);
  const moved = ctx.db
    .update(notebooks)
    .set({ circleId: circle.id, updatedAt: ctx.clock.now() })
    .where(eq(notebooks.id, notebook.id))
    .returning()
    .get()!;
  return presentNotebook(ctx, current, moved);
}

/** A circle member's circle by invitation code, for the join page (the name only; nothing private). */
export function circleNameForInvitation(ctx: AppContext, invitationCode: string): string | undefined {
  return ctx.db.select({ name: circles.name }).from(circles).where(eq(circles.invitationCode, invitationCode)).get()?.name;
}
