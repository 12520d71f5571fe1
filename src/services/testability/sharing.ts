import { eq } from "drizzle-orm";
import type { AppContext } from "../../context";
import { accounts, bazaarNotebooks, circleMembers, circles, notes, users } from "../../db/schema";
import { BadRequestError } from "../errors";
import { newInvitationCode } from "../sharing/circles";

/** share_to_bazaar: shares the notebook of the first note with that title. */
export function shareNotebookOfNoteToBazaar(ctx: AppContext, title: string) {
  const note = ctx.db.select({ notebookId: notes.notebookId }).from(notes).where(eq(notes.title, title)).orderBy(notes.id).get();
  if (!note) throw new BadRequestError(`No note "${title}"`);
  ctx.db.insert(bazaarNotebooks).values({ notebookId: note.notebookId, createdAt: ctx.clock.now() }).onConflictDoNothing().run();
  return "OK";
}

/** inject_circle: a circle with these members (external identifiers, comma-separated). */
export function injectCircle(ctx: AppContext, circleName: string, members: string) {
  const now = ctx.clock.now();
  ctx.db.transaction((tx) => {
    const circle = tx.insert(circles).values({ name: circleName, invitationCode: newInvitationCode(), createdAt: now }).returning().get();
    for (const identifier of members
      .split(",")
      .map((m) => m.trim())
      .filter(Boolean)) {
      const user = tx
        .select({ id: users.id })
        .from(users)
        .innerJoin(accounts, eq(users.accountId, accounts.id))
        .where(eq(accounts.externalIdentifier, identifier))
        .get();
      if (!user) throw new BadRequestError(`No user "${identifier}"`);
      tx.insert(circleMembers).values({ circleId: circle.id, userId: user.id, joinedAt: now }).onConflictDoNothing().run();
    }
  });
  return "OK";
}

/** The circle named so (the newest when several share the name), for inject_notes' circleName. */
export function circleIdByName(ctx: AppContext, circleName: string): number {
  const circle = ctx.db.select({ id: circles.id }).from(circles).where(eq(circles.name, circleName)).orderBy(circles.id).all().at(-1);
  if (!circle) throw new BadRequestError(`No circle "${circleName}"`);
  return circle.id;
}
