import type { AppContext } from "../../context";
import { accessoryColumnsOfTestRow } from "../accessories/test-data";
import { BadRequestError } from "../errors";
import type { CurrentUser } from "../users";
import { circleIdByName } from "./sharing";

export interface NoteTestRow {
  Title: string;
  Details?: string | null;
  "Parent Title"?: string | null;
  "Skip Memory Tracking"?: string | boolean | null;
  "Image Url"?: string | null;
  "Image Mask"?: string | null;
  "Wikidata Id"?: string | null;
}

/**
 * The inject_notes hook: creates notes in row order for a user, in one transaction. A row
 * without a parent title starts a notebook (owned by the circle when circleName is given); a parent title is looked up among the rows of this
 * request first, then among the user's existing notes. Answers {title: noteId}.
 */
export async function injectNotes(
  ctx: AppContext,
  current: CurrentUser | undefined,
  input: {
    externalIdentifier?: string | null;
    circleName?: string | null;
    noteTestData: NoteTestRow[];
  },
): Promise<Record<string, number>> {
  const circleId = input.circleName ? await circleIdByName(ctx, input.circleName) : null;
  const ownerId = input.externalIdentifier ? await ctx.stores.userReferences.userIdByLogin(input.externalIdentifier) : current?.user.id;
  if (ownerId === undefined)
    throw new BadRequestError(`No user ${input.externalIdentifier ? `"${input.externalIdentifier}"` : "is signed in"}`);
  const rows = input.noteTestData.map((row) => ({
    title: row.Title,
    parentTitle: row["Parent Title"]?.trim() || undefined,
    columns: {
      title: row.Title,
      details: row.Details ?? "",
      wikidataId: row["Wikidata Id"] || null,
      skipMemoryTracking: row["Skip Memory Tracking"] === true || row["Skip Memory Tracking"] === "true",
      ...accessoryColumnsOfTestRow(row),
    },
  }));
  return ctx.stores.notes.injectNotes(ownerId, circleId, rows, ctx.clock.now(), (title) => {
    throw new BadRequestError(`Parent note "${title}" not found`);
  });
}
