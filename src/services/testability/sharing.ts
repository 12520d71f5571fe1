import type { AppContext } from "../../context";
import { BadRequestError } from "../errors";
import { newInvitationCode } from "../sharing/circles";

/** share_to_bazaar: shares the notebook of the first note with that title. */
export async function shareNotebookOfNoteToBazaar(ctx: AppContext, title: string) {
  if (!(await ctx.stores.sharing.shareNotebookOfNoteToBazaar(title, ctx.clock.now()))) throw new BadRequestError(`No note "${title}"`);
  return "OK";
}

/** inject_circle: a circle with these members (external identifiers, comma-separated). */
export async function injectCircle(ctx: AppContext, circleName: string, members: string) {
  const logins = members
    .split(",")
    .map((m) => m.trim())
    .filter(Boolean);
  const { unknown } = await ctx.stores.sharing.injectCircle(circleName, newInvitationCode(), logins, ctx.clock.now());
  if (unknown !== undefined) throw new BadRequestError(`No user "${unknown}"`);
  return "OK";
}

/** The circle named so (the newest when several share the name), for inject_notes' circleName. */
export async function circleIdByName(ctx: AppContext, circleName: string): Promise<number> {
  const circle = await ctx.stores.sharing.circleByName(circleName);
  if (!circle) throw new BadRequestError(`No circle "${circleName}"`);
  return circle.id;
}
