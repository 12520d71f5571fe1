import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { AppContext } from "../../context";
import { prepared } from "../../db/prepared";
import { notebooks, notes } from "../../db/schema";
import { NotFoundError } from "../errors";

export type NoteRow = typeof notes.$inferSelect;
export type NotebookRow = typeof notebooks.$inferSelect;

export function findNote(ctx: AppContext, noteId: number): NoteRow | undefined {
  return prepared(ctx.db, "note-by-id", (db) =>
    db
      .select()
      .from(notes)
      .where(eq(notes.id, sql.placeholder("id")))
      .prepare(),
  ).get({ id: noteId });
}

export function getNote(ctx: AppContext, noteId: number): NoteRow {
  const note = findNote(ctx, noteId);
  if (!note) throw new NotFoundError("Note");
  return note;
}

export function getNotebook(ctx: AppContext, notebookId: number): NotebookRow {
  const notebook = prepared(ctx.db, "notebook-by-id", (db) =>
    db
      .select()
      .from(notebooks)
      .where(eq(notebooks.id, sql.placeholder("id")))
      .prepare(),
  ).get({ id: notebookId });
  if (!notebook) throw new NotFoundError("Notebook");
  return notebook;
}

/** The children of a note that are not deleted, in sibling order (one index range scan). */
export function childrenOf(ctx: AppContext, noteId: number): NoteRow[] {
  return prepared(ctx.db, "children-of-note", (db) =>
    db
      .select()
      .from(notes)
      .where(and(eq(notes.parentId, sql.placeholder("parentId")), isNull(notes.deletedAt)))
      .orderBy(asc(notes.siblingOrder), asc(notes.id))
      .prepare(),
  ).all({ parentId: noteId });
}

/** For each note: its undeleted children, and how many of them are links (notes with a target). */
export function childAndLinkCounts(ctx: AppContext, noteIds: number[]): Map<number, { children: number; links: number }> {
  const counts = new Map(noteIds.map((id) => [id, { children: 0, links: 0 }]));
  if (noteIds.length === 0) return counts;
  // One cached statement for any number of notes (a JSON array), not one per count of placeholders.
  const rows = ctx.sqlite
    .query<{ parent_id: number; n: number; links: number }, [string]>(
      `SELECT parent_id, count(*) AS n, count(target_note_id) AS links FROM notes
       WHERE parent_id IN (SELECT value FROM json_each(?)) AND deleted_at IS NULL GROUP BY parent_id`,
    )
    .all(JSON.stringify(noteIds));
  for (const row of rows) counts.set(row.parent_id, { children: row.n, links: row.links });
  return counts;
}

/** The ancestors of a note, root first (not including the note). */
export function ancestorsOf(ctx: AppContext, note: NoteRow): NoteRow[] {
  if (note.parentId === null) return [];
  const ids = ctx.sqlite
    .query<{ id: number; depth: number }, [number]>(
      `WITH RECURSIVE ancestor(id, parent_id, depth) AS (
         SELECT id, parent_id, 1 FROM notes WHERE id = ?
         UNION ALL
         SELECT n.id, n.parent_id, ancestor.depth + 1 FROM notes n JOIN ancestor ON n.id = ancestor.parent_id
       ) SELECT id, depth FROM ancestor ORDER BY depth DESC`,
    )
    .all(note.parentId)
    .map((row) => row.id);
  return notesByIds(ctx, ids);
}

/** The ids of every descendant of a note (deleted ones too), depth first is not guaranteed. */
export function descendantIds(ctx: AppContext, noteId: number): number[] {
  return ctx.sqlite
    .query<{ id: number }, [number]>(
      `WITH RECURSIVE descendant(id) AS (
         SELECT id FROM notes WHERE parent_id = ?
         UNION ALL
         SELECT n.id FROM notes n JOIN descendant ON n.parent_id = descendant.id
       ) SELECT id FROM descendant`,
    )
    .all(noteId)
    .map((row) => row.id);
}

/** Notes by id, in the order of the ids given. */
export function notesByIds(ctx: AppContext, ids: number[]): NoteRow[] {
  if (ids.length === 0) return [];
  // One cached statement for any number of ids (a JSON array), not an ORM query built per call:
  // every realm loads its ancestors this way.
  const byId = new Map<number, NoteRow>();
  const rows = prepared(ctx.db, "notes-by-json-ids", (db) =>
    db
      .select()
      .from(notes)
      .where(sql`${notes.id} IN (SELECT value FROM json_each(${sql.placeholder("ids")}))`)
      .prepare(),
  ).all({ ids: JSON.stringify(ids) });
  for (const row of rows) byId.set(row.id, row);
  return ids.map((id) => byId.get(id)).filter((n): n is NoteRow => n !== undefined);
}

/** Where a page of children starts: after this child (by its sibling order, then id). */
export interface ChildrenCursor {
  siblingOrder: number;
  id: number;
}

/**
 * One page of a note's undeleted children in sibling order, after `after` (from the first child
 * without it): one range scan of notes_parent_order_idx that stops after `limit` rows.
 */
export function childrenPageOf(ctx: AppContext, noteId: number, limit: number, after?: ChildrenCursor): NoteRow[] {
  if (!after) {
    return prepared(ctx.db, "children-of-note-first-page", (db) =>
      db
        .select()
        .from(notes)
        .where(and(eq(notes.parentId, sql.placeholder("parentId")), isNull(notes.deletedAt)))
        .orderBy(asc(notes.siblingOrder), asc(notes.id))
        .limit(sql.placeholder("limit"))
        .prepare(),
    ).all({ parentId: noteId, limit });
  }
  return prepared(ctx.db, "children-of-note-page-after", (db) =>
    db
      .select()
      .from(notes)
      .where(
        and(
          eq(notes.parentId, sql.placeholder("parentId")),
          isNull(notes.deletedAt),
          sql`(${notes.siblingOrder} > ${sql.placeholder("order")} OR (${notes.siblingOrder} = ${sql.placeholder("order")} AND ${notes.id} > ${sql.placeholder("id")}))`,
        ),
      )
      .orderBy(asc(notes.siblingOrder), asc(notes.id))
      .limit(sql.placeholder("limit"))
      .prepare(),
  ).all({ parentId: noteId, order: after.siblingOrder, id: after.id, limit });
}
