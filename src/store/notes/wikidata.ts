/**
 * Notes and their Wikidata entities: the uniqueness of an entity in a notebook, and writing what
 * was fetched from Wikidata (a description prepended to the details, sub-notes) in one unit of
 * work. The fetching itself happens before, outside any transaction (services/wikidata).
 */
import { and, asc, eq, isNull, ne } from "drizzle-orm";
import { lockRow, one, run, type Session, type Step } from "../session";
import { insertNote } from "./insert-note";
import { type NotebookRow, type NoteRow, noteById, noteWithNotebook } from "./note-rows";

/** What a note gets from its Wikidata entity, fetched beforehand. */
export interface WikidataEnrichment {
  wikidataId: string;
  /** Prepended to the details; "" adds nothing. */
  description: string;
  /** Only on note creation: the country of a person and the authors of a book, in that order. */
  subNotes: { wikidataId: string; title: string; enrichment?: WikidataEnrichment }[];
}

/** The link type of a sub-note that already exists in the notebook. */
export const RELATED_TO = "related to";

/** The reference's rule: the addition alone when the details are empty, else addition + "\n" + details. */
export function prependDescription(details: string, addition: string): string {
  if (addition === "") return details;
  return details === "" ? addition : `${addition}\n${details}`;
}

/** The first undeleted note of the notebook with this Wikidata id (other than `exceptNoteId`). */
export function* noteWithWikidataId(s: Session, notebookId: number, wikidataId: string, exceptNoteId?: number): Step<NoteRow | undefined> {
  const { notes } = s.t;
  return yield* one(
    s,
    s.db
      .select()
      .from(notes)
      .where(
        and(
          eq(notes.notebookId, notebookId),
          eq(notes.wikidataId, wikidataId),
          isNull(notes.deletedAt),
          exceptNoteId === undefined ? undefined : ne(notes.id, exceptNoteId),
        ),
      )
      .orderBy(asc(notes.id))
      .limit(1),
  );
}

/**
 * Writes a prepared enrichment to the note; answers the ids of the notes whose text changed (their
 * listeners are told after the unit commits).
 */
/**
 * Locks the notebook's row, then the note's, until the unit ends (PostgreSQL; a SQLite write unit
 * is the only writer): writers of a notebook's entities take turns, so an entity is checked unique
 * and a sub-note found or made against what the one before wrote, and a description is prepended
 * to the details as the last save left them.
 */
function* lockNotebookAndNote(s: Session, notebookId: number, noteId: number): Step<void> {
  yield* lockRow(s, s.t.notebooks, notebookId);
  yield* lockRow(s, s.t.notes, noteId);
}

/**
 * The note as it is once its notebook and itself are locked (PostgreSQL): moved to another
 * notebook before the lock was taken, the note's new notebook is locked instead.
 */
function* lockedInItsNotebook(s: Session, noteId: number): Step<NoteRow | undefined> {
  let notebookId = (yield* noteById(s, noteId))?.notebookId;
  while (notebookId !== undefined) {
    yield* lockNotebookAndNote(s, notebookId, noteId);
    const note = yield* noteById(s, noteId);
    if (!note || note.notebookId === notebookId) return note;
    notebookId = note.notebookId;
  }
  return undefined;
}

export function* applyEnrichment(s: Session, noteId: number, enrichment: WikidataEnrichment, now: Date): Step<number[]> {
  const note = yield* lockedInItsNotebook(s, noteId);
  if (!note) return [];
  const changed: number[] = [];
  yield* applyTo(s, note, enrichment, now, changed);
  return changed;
}

function* applyTo(s: Session, note: NoteRow, enrichment: WikidataEnrichment, now: Date, changed: number[]): Step<void> {
  const { notes } = s.t;
  if (enrichment.description !== "") {
    yield* run(
      s,
      s.db
        .update(notes)
        .set({ details: prependDescription(note.details, enrichment.description), updatedAt: now })
        .where(eq(notes.id, note.id)),
    );
    changed.push(note.id);
  }
  for (const sub of enrichment.subNotes) {
    // Decided now, not when prepared: an earlier sub-note may just have created it.
    const existing = yield* noteWithWikidataId(s, note.notebookId, sub.wikidataId);
    if (existing) {
      if (existing.id !== note.id) yield* insertNote(s, now, { lastChildOf: note }, { title: RELATED_TO, targetNoteId: existing.id });
      continue;
    }
    const child = yield* insertNote(s, now, { lastChildOf: note }, { title: sub.title, wikidataId: sub.wikidataId });
    if (sub.enrichment) yield* applyTo(s, child, sub.enrichment, now, changed);
  }
}

/**
 * Sets or clears a note's Wikidata id, with the enrichment fetched for a new id, in one unit.
 * `check` is asked with the note as it is now (it may have moved or changed while Wikidata
 * answered) and throws to refuse; so is the id's uniqueness in the notebook (`duplicate` throws).
 */
export function* setWikidataId(
  s: Session,
  noteId: number,
  wikidataId: string | null,
  enrichment: WikidataEnrichment | undefined,
  now: Date,
  check: (found: { note: NoteRow; notebook: NotebookRow } | undefined) => void,
  duplicate: () => never,
): Step<number[]> {
  const { notes } = s.t;
  const found = (yield* lockedInItsNotebook(s, noteId)) ? yield* noteWithNotebook(s, noteId) : undefined;
  check(found);
  if (!found) return [];
  const { note } = found;
  if (wikidataId !== null && (yield* noteWithWikidataId(s, note.notebookId, wikidataId, note.id))) duplicate();
  yield* run(s, s.db.update(notes).set({ wikidataId, updatedAt: now }).where(eq(notes.id, note.id)));
  return enrichment ? yield* applyEnrichment(s, note.id, enrichment, now) : [];
}
