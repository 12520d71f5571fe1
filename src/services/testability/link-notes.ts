import type { AppContext } from "../../context";
import { BadRequestError } from "../errors";
import { isLinkType } from "../links/link-types";
import { requireNote } from "../notes/rows";

/** The link_notes hook: a link note of the type under the source, whoever owns them. Answers "OK". */
export async function linkNotes(ctx: AppContext, sourceId: number, targetId: number, type: string) {
  if (!isLinkType(type) || type === "no link") throw new BadRequestError(`Unknown link type "${type}"`);
  const source = await requireNote(ctx, sourceId);
  await requireNote(ctx, targetId);
  await ctx.stores.notes.addNote(ctx.clock.now(), { lastChildOf: source }, { title: type, targetNoteId: targetId });
  return "OK";
}
