/**
 * Reads of notes and notebooks: by id, a note's children (all, or a page), its ancestors and
 * descendants, link notes pointing at it. The hot ones (every note page) are prepared once per
 * database; the ones that take a list of ids are per dialect (notes-sqlite.ts, notes-postgres.ts).
 */
import { and, asc, desc, eq, isNull, sql } from "drizzle-orm";
import type { notebooks, notes } from "../../db/schema";
import { all, byDialect, one, prepared, rawAll, type Session, type Step } from "../session";
import * as onPostgres from "./notes-postgres";
import * as onSqlite from "./notes-sqlite";

export type NoteRow = typeof notes.$inferSelect;
export type NotebookRow = typeof notebooks.$inferSelect;

/** Where a page of children starts: after this child (by its sibling order, then id). */
export interface ChildrenCursor {
  siblingOrder: number;
  id: number;
}

export function* noteById(s: Session, noteId: number): Step<NoteRow | undefined> {
  const { notes } = s.t;
  const byId = prepared(s, "note-by-id", () =>
    s.db
      .select()
      .from(notes)
      .where(eq(notes.id, sql.placeholder("id"))),
  );
  return yield* one(s, byId, { id: noteId });
}

export function* notebookById(s: Session, notebookId: number): Step<NotebookRow | undefined> {
  const { notebooks } = s.t;
  const byId = prepared(s, "notebook-by-id", () =>
    s.db
      .select()
      .from(notebooks)
      .where(eq(notebooks.id, sql.placeholder("id"))),
  );
  return yield* one(s, byId, { id: notebookId });
}

/** The note with its notebook (undefined when either is missing). */
export function* noteWithNotebook(s: Session, noteId: number): Step<{ note: NoteRow; notebook: NotebookRow } | undefined> {
  const note = yield* noteById(s, noteId);
  if (!note) return undefined;
  const notebook = yield* notebookById(s, note.notebookId);
  return notebook && { note, notebook };
}

/** The children of a note that are not deleted, in sibling order (one index range scan). */
export function* childrenOf(s: Session, noteId: number): Step<NoteRow[]> {
  const { notes } = s.t;
  const query = prepared(s, "children-of-note", () =>
    s.db
      .select()
      .from(notes)
      .where(and(eq(notes.parentId, sql.placeholder("parentId")), isNull(notes.deletedAt)))
      .orderBy(asc(notes.siblingOrder), asc(notes.id)),
  );
  return yield* all(s, query, { parentId: noteId });
}

/**
 * One page of a note's undeleted children in sibling order, after `after` (from the first child
 * without it): one range scan of notes_parent_order_idx that stops after `limit` rows.
 */
export function* childrenPageOf(s: Session, noteId: number, limit: number, after?: ChildrenCursor): Step<NoteRow[]> {
  const { notes } = s.t;
  if (!after) {
    const first = prepared(s, "children-of-note-first-page", () =>
      s.db
        .select()
        .from(notes)
        .where(and(eq(notes.parentId, sql.placeholder("parentId")), isNull(notes.deletedAt)))
        .orderBy(asc(notes.siblingOrder), asc(notes.id))
        .limit(sql.placeholder("limit")),
    );
    return yield* all(s, first, { parentId: noteId, limit });
  }
  const next = prepared(s, "children-of-note-page-after", () =>
    s.db
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
      .limit(sql.placeholder("limit")),
  );
  return yield* all(s, next, { parentId: noteId, order: after.siblingOrder, id: after.id, limit });
}

/** A page of children (one more than the limit is read, to know whether more follow), or every child. */
export function* childrenWindow(
  s: Session,
  noteId: number,
  limit: number | "all",
  after?: ChildrenCursor,
): Step<{ rows: NoteRow[]; more: boolean }> {
  if (limit === "all") return { rows: yield* childrenOf(s, noteId), more: false };
  const rows = yield* childrenPageOf(s, noteId, limit + 1, after);
  const more = rows.length > limit;
  return { rows: more ? rows.slice(0, limit) : rows, more };
}

/** For each note: its undeleted children, and how many of them are links (notes with a target). */
export function* childAndLinkCounts(s: Session, noteIds: number[]): Step<Map<number, { children: number; links: number }>> {
  const counts = new Map(noteIds.map((id) => [id, { children: 0, links: 0 }]));
  if (noteIds.length === 0) return counts;
  const rows = yield* byDialect(s, {
    sqlite: () => onSqlite.childAndLinkCounts(s, noteIds),
    postgres: () => onPostgres.childAndLinkCounts(s, noteIds),
  });
  for (const row of rows) if (row.parentId !== null) counts.set(row.parentId, { children: row.children, links: row.links });
  return counts;
}

/** Notes by id, in the order of the ids given (missing ones left out). */
export function* notesByIds(s: Session, ids: number[]): Step<NoteRow[]> {
  if (ids.length === 0) return [];
  const rows = yield* byDialect(s, { sqlite: () => onSqlite.notesByIds(s, ids), postgres: () => onPostgres.notesByIds(s, ids) });
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id)).filter((n): n is NoteRow => n !== undefined);
}

/**
 * The ancestors of a note, root first (not including the note): their ids by one recursive query,
 * prepared once (every note page asks), then their rows by one cached statement.
 */
export function* ancestorsOf(s: Session, note: Pick<NoteRow, "parentId">): Step<NoteRow[]> {
  if (note.parentId === null) return [];
  const { notes } = s.t;
  const chain = sql`(WITH RECURSIVE ancestor(id, parent_id, depth) AS (
      SELECT ${notes.id}, ${notes.parentId}, 1 FROM ${notes} WHERE ${notes.id} = ${sql.placeholder("parentId")}
      UNION ALL
      SELECT ${notes.id}, ${notes.parentId}, ancestor.depth + 1 FROM ${notes} JOIN ancestor ON ${notes.id} = ancestor.parent_id
    ) SELECT id, depth FROM ancestor) AS ancestor`;
  const query = prepared(s, "ancestor-ids-of-note", () =>
    s.db.select({ id: sql<number>`ancestor.id` }).from(chain).orderBy(sql`ancestor.depth DESC`),
  );
  const ids = yield* all(s, query, { parentId: note.parentId });
  return yield* notesByIds(
    s,
    ids.map((row) => row.id),
  );
}

/** The ids of every descendant of a note (deleted ones too), in no promised order. */
export function* descendantIds(s: Session, noteId: number): Step<number[]> {
  const { notes } = s.t;
  const rows = yield* rawAll<{ id: number }>(
    s,
    sql`WITH RECURSIVE descendant(id) AS (
      SELECT ${notes.id} FROM ${notes} WHERE ${notes.parentId} = ${noteId}
      UNION ALL
      SELECT ${notes.id} FROM ${notes} JOIN descendant ON ${notes.parentId} = descendant.id
    ) SELECT id FROM descendant`,
  );
  return rows.map((row) => row.id);
}

/** Undeleted link notes whose target is this note, by id, of the notebooks `readable` accepts. */
export function* inboundReferencesOf(s: Session, noteId: number, readable: (notebookId: number) => boolean): Step<NoteRow[]> {
  const { notes } = s.t;
  const query = prepared(s, "inbound-references-of-note", () =>
    s.db
      .select({ id: notes.id, notebookId: notes.notebookId })
      .from(notes)
      .where(and(eq(notes.targetNoteId, sql.placeholder("noteId")), isNull(notes.deletedAt)))
      .orderBy(asc(notes.id)),
  );
  const refs = yield* all(s, query, { noteId });
  return yield* notesByIds(
    s,
    refs.filter((ref) => readable(ref.notebookId)).map((ref) => ref.id),
  );
}

/** The notes of notebooks the user created, most recently added or updated first, with their notebooks. */
export function* recentNotesOfCreator(s: Session, userId: number, limit: number): Step<{ note: NoteRow; notebook: NotebookRow }[]> {
  const { notes, notebooks } = s.t;
  return yield* all(
    s,
    s.db
      .select({ note: notes, notebook: notebooks })
      .from(notes)
      .innerJoin(notebooks, eq(notes.notebookId, notebooks.id))
      .where(and(eq(notebooks.creatorId, userId), isNull(notes.deletedAt)))
      .orderBy(desc(notes.updatedAt), desc(notes.id))
      .limit(limit),
  );
}

/** How many undeleted descendants a note has (through undeleted notes), links left out. */
export function* undeletedDescendantCount(s: Session, noteId: number): Step<number> {
  const { notes } = s.t;
  const [row] = yield* rawAll<{ count: number }>(
    s,
    sql`WITH RECURSIVE descendant(id) AS (
      SELECT ${notes.id} FROM ${notes} WHERE ${notes.parentId} = ${noteId} AND ${notes.deletedAt} IS NULL
      UNION ALL
      SELECT ${notes.id} FROM ${notes} JOIN descendant ON ${notes.parentId} = descendant.id WHERE ${notes.deletedAt} IS NULL
    ) SELECT count(*) AS count FROM descendant JOIN ${notes} ON ${notes.id} = descendant.id WHERE ${notes.targetNoteId} IS NULL`,
  );
  // PostgreSQL's count is a bigint, which reaches JavaScript as a string.
  return Number(row?.count ?? 0);
}

/** A note with its ancestors, its undeleted descendants and the targets of the links among them. */
export function* subtreeRows(
  s: Session,
  noteId: number,
): Step<{ focus: NoteRow; notebook: NotebookRow; ancestors: NoteRow[]; descendants: NoteRow[]; targets: NoteRow[] } | undefined> {
  const found = yield* noteWithNotebook(s, noteId);
  if (!found) return undefined;
  const descendants = (yield* notesByIds(s, yield* descendantIds(s, noteId))).filter((n) => !n.deletedAt);
  const ancestors = yield* ancestorsOf(s, found.note);
  const targets = yield* notesByIds(
    s,
    descendants.flatMap((n) => (n.targetNoteId !== null ? [n.targetNoteId] : [])),
  );
  return { focus: found.note, notebook: found.notebook, ancestors, descendants, targets };
}
