/**
 * The SQLite pieces of the notes store: lists of ids passed as one JSON array (json_each), so a
 * single cached statement serves any number of ids (not one statement per count of placeholders).
 * PostgreSQL's twin is notes-postgres.ts.
 */
import { and, count, isNull, sql } from "drizzle-orm";
import { all, prepared, type Session, type Step } from "../session";

type NoteRow = typeof notesTable.$inferSelect;

import type { notes as notesTable } from "../../db/schema";

/** Notes by id, in no promised order. */
export function* notesByIds(s: Session, ids: number[]): Step<NoteRow[]> {
  const { notes } = s.t;
  const query = prepared(s, "notes-by-json-ids", () =>
    s.db
      .select()
      .from(notes)
      .where(sql`${notes.id} IN (SELECT value FROM json_each(${sql.placeholder("ids")}))`),
  );
  return yield* all(s, query, { ids: JSON.stringify(ids) });
}

/** Each parent's undeleted children and how many of them are links. */
export function* childAndLinkCounts(s: Session, parentIds: number[]): Step<{ parentId: number | null; children: number; links: number }[]> {
  const { notes } = s.t;
  const query = prepared(s, "child-and-link-counts", () =>
    s.db
      .select({ parentId: notes.parentId, children: count(), links: count(notes.targetNoteId) })
      .from(notes)
      .where(and(sql`${notes.parentId} IN (SELECT value FROM json_each(${sql.placeholder("ids")}))`, isNull(notes.deletedAt)))
      .groupBy(notes.parentId),
  );
  return yield* all(s, query, { ids: JSON.stringify(parentIds) });
}

/**
 * Undeleted, non-link notes of these notebooks whose title is `title` (case-insensitive, spaces
 * around ignored), by id, at most 100.
 */
export function* idsOfNotesTitled(s: Session, notebookIds: number[], title: string): Step<number[]> {
  const { notes } = s.t;
  const query = prepared(s, "ids-of-notes-titled", () =>
    s.db
      .select({ id: notes.id })
      .from(notes)
      .where(
        and(
          sql`${notes.notebookId} IN (SELECT value FROM json_each(${sql.placeholder("notebookIds")}))`,
          isNull(notes.deletedAt),
          isNull(notes.targetNoteId),
          sql`lower(trim(${notes.title})) = lower(${sql.placeholder("title")})`,
        ),
      )
      .orderBy(notes.id)
      .limit(100),
  );
  return (yield* all(s, query, { notebookIds: JSON.stringify(notebookIds), title })).map((row) => row.id);
}
