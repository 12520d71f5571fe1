import type { AppContext } from "../../context";
import { BadRequestError } from "../errors";
import { isLinkType } from "../links/link-types";
import { insertNote } from "../notes/insert-note";
import { getNote } from "../notes/rows";

/** The link_notes hook: a link note of the type under the source, whoever owns them. Answers "OK". */
export function linkNotes(ctx: AppContext, sourceId: number, targetId: number, type: string) {
  if (!isLinkType(type) || type === "no link") throw new BadRequestError(`Unknown link type "${type}"`);
  const source = getNote(ctx, sourceId);
  getNote(ctx, targetId);
  const now = ctx.clock.now();
  ctx.db.transaction((tx) => insertNote(tx, now, { lastChildOf: source }, { title: type, targetNoteId: targetId }));
  return "OK";
}
