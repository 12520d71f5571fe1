import type { AppContext } from "../../context";
import { notes } from "../../db/schema";
import { BadRequestError } from "../errors";
import { isLinkType } from "../links/link-types";
import { getNote } from "../notes/rows";
import { orderForLastChild } from "../notes/sibling-order";

/** The link_notes hook: a link note of the type under the source, whoever owns them. Answers "OK". */
export function linkNotes(ctx: AppContext, sourceId: number, targetId: number, type: string) {
  if (!isLinkType(type) || type === "no link") throw new BadRequestError(`Unknown link type "${type}"`);
  const source = getNote(ctx, sourceId);
  getNote(ctx, targetId);
  const now = ctx.clock.now();
  ctx.db.transaction((tx) => {
    tx.insert(notes)
      .values({
        notebookId: source.notebookId,
        parentId: source.id,
        targetNoteId: targetId,
        title: type,
        siblingOrder: orderForLastChild(tx, source.id),
        createdAt: now,
        updatedAt: now,
      })
      .run();
  });
  return "OK";
}
