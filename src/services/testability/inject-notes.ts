import { and, eq, isNull } from "drizzle-orm";
import type { AppContext } from "../../context";
import { accounts, notebooks, notes, users } from "../../db/schema";
import { accessoryColumnsOfTestRow } from "../accessories/test-data";
import { BadRequestError } from "../errors";
import { insertNote } from "../notes/insert-note";
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
export function injectNotes(
  ctx: AppContext,
  current: CurrentUser | undefined,
  input: {
    externalIdentifier?: string | null;
    circleName?: string | null;
    noteTestData: NoteTestRow[];
  },
): Record<string, number> {
  const circleId = input.circleName ? circleIdByName(ctx, input.circleName) : null;
  const owner = input.externalIdentifier ? userByExternalIdentifier(ctx, input.externalIdentifier) : current?.user;
  if (!owner) throw new BadRequestError(`No user ${input.externalIdentifier ? `"${input.externalIdentifier}"` : "is signed in"}`);
  const now = ctx.clock.now();
  const created: Record<string, number> = {};
  const createdRows = new Map<string, { id: number; notebookId: number }>();
  ctx.db.transaction((tx) => {
    for (const row of input.noteTestData) {
      const parentTitle = row["Parent Title"]?.trim();
      const values = {
        title: row.Title,
        details: row.Details ?? "",
        wikidataId: row["Wikidata Id"] || null,
        skipMemoryTracking: row["Skip Memory Tracking"] === true || row["Skip Memory Tracking"] === "true",
        ...accessoryColumnsOfTestRow(row),
      };
      let note: { id: number; notebookId: number };
      if (!parentTitle) {
        const notebook = tx.insert(notebooks).values({ creatorId: owner.id, circleId, createdAt: now, updatedAt: now }).returning().get();
        note = insertNote(tx, now, { headOf: notebook.id }, values);
        tx.update(notebooks).set({ headNoteId: note.id }).where(eq(notebooks.id, notebook.id)).run();
      } else {
        const parent = createdRows.get(parentTitle) ?? existingNoteOf(ctx, owner.id, parentTitle);
        if (!parent) throw new BadRequestError(`Parent note "${parentTitle}" not found`);
        note = insertNote(tx, now, { lastChildOf: parent }, values);
      }
      createdRows.set(row.Title, note);
      created[row.Title] = note.id;
    }
  });
  return created;
}

function userByExternalIdentifier(ctx: AppContext, externalIdentifier: string) {
  return ctx.db
    .select({ user: users })
    .from(users)
    .innerJoin(accounts, eq(users.accountId, accounts.id))
    .where(eq(accounts.externalIdentifier, externalIdentifier))
    .get()?.user;
}

function existingNoteOf(ctx: AppContext, userId: number, title: string) {
  return ctx.db
    .select({ id: notes.id, notebookId: notes.notebookId })
    .from(notes)
    .innerJoin(notebooks, eq(notes.notebookId, notebooks.id))
    .where(and(eq(notebooks.creatorId, userId), eq(notes.title, title), isNull(notes.deletedAt)))
    .get();
}
