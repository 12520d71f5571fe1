/**
 * The PostgreSQL pieces of the notes store, twins of notes-sqlite.ts: lists of ids through inIds,
 * bound id by id while short (PostgreSQL keeps no statement cache per text here that one JSON
 * parameter would spare) and as one JSON array when long (a bazaar's notebooks, a note's children).
 */
import { and, count, isNull, sql } from "drizzle-orm";
import type { notes as notesTable } from "../../db/schema";
import { all, inIds, type Session, type Step } from "../session";

type NoteRow = typeof notesTable.$inferSelect;

/** Notes by id, in no promised order. */
export function* notesByIds(s: Session, ids: number[]): Step<NoteRow[]> {
  const { notes } = s.t;
  return yield* all(
    s,
    s.db
      .select()
      .from(notes)
      .where(inIds(s, notes.id, ids)),
  );
}

/** Each parent's undeleted children and how many of them are links. */
export function* childAndLinkCounts(s: Session, parentIds: number[]): Step<{ parentId: number | null; children: number; links: number }[]> {
  const { notes } = s.t;
  return yield* all(
    s,
    s.db
      .select({ parentId: notes.parentId, children: count(), links: count(notes.targetNoteId) })
      .from(notes)
      .where(and(inIds(s, notes.parentId, parentIds), isNull(notes.deletedAt)))
      .groupBy(notes.parentId),
  );
}

/**
 * Undeleted, non-link notes of these notebooks whose title is `title` (case-insensitive, spaces
 * around ignored), by id, at most 100. SQLite's trim() and lower() here: spaces only, and
 * lower() folds ASCII letters only there; PostgreSQL's lower() folds every letter.
 */
export function* idsOfNotesTitled(s: Session, notebookIds: number[], title: string): Step<number[]> {
  const { notes } = s.t;
  const rows = yield* all(
    s,
    s.db
      .select({ id: notes.id })
      .from(notes)
      .where(
        and(
          inIds(s, notes.notebookId, notebookIds),
          isNull(notes.deletedAt),
          isNull(notes.targetNoteId),
          sql`lower(trim(${notes.title})) = lower(${title})`,
        ),
      )
      .orderBy(notes.id)
      .limit(100),
  );
  return rows.map((row) => row.id);
}
