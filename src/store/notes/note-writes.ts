/**
 * Writes of existing notes: text saves (merged with what others saved meanwhile), deletion and its
 * undo, moves. Each is one unit of work; what follows a change (full-text indexes, revisions,
 * re-embedding through the note_changes outbox) is raised by the notes table's triggers.
 */
import { and, eq, inArray, isNull } from "drizzle-orm";
import { takeLogWritersTurn } from "../search/binary-index-store";
import { all, forUpdate, lockRow, one, run, type Session, type Step } from "../session";
import { descendantIds, type NoteRow, noteById } from "./note-rows";
import { orderAfter, orderForFirstChild, orderForLastChild } from "./sibling-order";

export type TextField = "title" | "details";

/** Ids per IN list, well under SQLite's limit of bound parameters. */
const CHUNK = 500;

function* updateEach(ids: number[], write: (chunk: number[]) => Step<unknown>): Step<void> {
  for (let i = 0; i < ids.length; i += CHUNK) yield* write(ids.slice(i, i + CHUNK));
}

/**
 * The note and its descendants, each locked until the unit ends (PostgreSQL; a SQLite write unit
 * is the only writer). A note being added under one of them locks its parent first (sibling
 * order): either it commits before this lock is granted, and the listing after the lock finds it,
 * or it waits and then finds its parent deleted or moved (insertNote). Listed again until no
 * such child came in meanwhile.
 */
function* lockedSubtreeIds(s: Session, noteId: number): Step<number[]> {
  const { notes } = s.t;
  let listed = [noteId, ...(yield* descendantIds(s, noteId))];
  if (s.dialect === "sqlite") return listed;
  const locked = new Set<number>();
  for (;;) {
    const toLock = listed.filter((id) => !locked.has(id));
    if (toLock.length === 0) return listed;
    yield* updateEach(toLock, (chunk) => all(s, forUpdate(s, s.db.select({ id: notes.id }).from(notes).where(inArray(notes.id, chunk)))));
    for (const id of toLock) locked.add(id);
    listed = [noteId, ...(yield* descendantIds(s, noteId))];
  }
}

/** The text of a field at a revision, while it is kept (the last 50 are; see migrations). */
export function* textAt(s: Session, noteId: number, field: TextField, revision: number): Step<string | undefined> {
  const { noteTextRevisions: r } = s.t;
  const row = yield* one(
    s,
    s.db
      .select({ text: r.text })
      .from(r)
      .where(and(eq(r.noteId, noteId), eq(r.field, field), eq(r.revision, revision))),
  );
  return row?.text;
}

/**
 * Saves a note's title or details. `decide` gets the note as it is now and, when the save was
 * based on an earlier revision still kept, that revision's text; it answers the text to write (or
 * throws: a conflict, an invalid text). Answers the note as saved (its revision raised by a trigger).
 */
export function* saveText(
  s: Session,
  noteId: number,
  field: TextField,
  baseRevision: number | undefined,
  decide: (note: NoteRow, baseText: string | undefined) => string,
  now: Date,
): Step<NoteRow | undefined> {
  const { notes } = s.t;
  // Saves of one note take turns from here: each merges with the text the one before saved.
  yield* lockRow(s, notes, noteId);
  const note = yield* noteById(s, noteId);
  if (!note) return undefined;
  const current = field === "title" ? note.titleRevision : note.detailsRevision;
  const baseText = baseRevision !== undefined && baseRevision < current ? yield* textAt(s, noteId, field, baseRevision) : undefined;
  const text = decide(note, baseText);
  const changes = field === "title" ? { title: text, updatedAt: now } : { details: text, updatedAt: now };
  yield* run(s, s.db.update(notes).set(changes).where(eq(notes.id, noteId)));
  return yield* noteById(s, noteId);
}

/** Sets a note's title as given (a link's type), stamping it updated. */
export function* setTitle(s: Session, noteId: number, title: string, now: Date): Step<void> {
  const { notes } = s.t;
  yield* run(s, s.db.update(notes).set({ title, updatedAt: now }).where(eq(notes.id, noteId)));
}

/**
 * Soft-deletes the note and its undeleted descendants, marked with the note as their deletion
 * root (so undo restores exactly them, even when two deletions share a timestamp).
 */
export function* softDeleteSubtree(s: Session, noteId: number, now: Date): Step<void> {
  const { notes } = s.t;
  const ids = yield* lockedSubtreeIds(s, noteId);
  yield* updateEach(ids, (chunk) =>
    run(
      s,
      s.db
        .update(notes)
        .set({ deletedAt: now, deletionRootId: noteId })
        .where(and(inArray(notes.id, chunk), isNull(notes.deletedAt))),
    ),
  );
}

/** Restores a deleted note and the descendants deleted with it (nothing when it is not deleted). */
export function* restoreSubtree(s: Session, noteId: number): Step<void> {
  const { notes } = s.t;
  const note = yield* noteById(s, noteId);
  if (!note?.deletedAt) return;
  // Deletions from before deletion roots were recorded are matched by their timestamp.
  const sameDeletion = note.deletionRootId !== null ? eq(notes.deletionRootId, note.deletionRootId) : eq(notes.deletedAt, note.deletedAt);
  const ids = [note.id, ...(yield* descendantIds(s, note.id))];
  yield* updateEach(ids, (chunk) =>
    run(
      s,
      s.db
        .update(notes)
        .set({ deletedAt: null, deletionRootId: null })
        .where(and(inArray(notes.id, chunk), sameDeletion)),
    ),
  );
}

/** Puts the note and its descendants in another notebook. */
function* moveSubtreeToNotebook(s: Session, noteId: number, notebookId: number): Step<void> {
  const { notes } = s.t;
  const ids = yield* lockedSubtreeIds(s, noteId);
  yield* updateEach(ids, (chunk) => run(s, s.db.update(notes).set({ notebookId }).where(inArray(notes.id, chunk))));
}

/**
 * Moves a note as the first child of the target, or right after the target among its siblings;
 * its subtree follows into the target's notebook.
 */
export function* moveNote(
  s: Session,
  note: Pick<NoteRow, "id" | "notebookId">,
  target: Pick<NoteRow, "id" | "notebookId" | "parentId" | "siblingOrder">,
  asFirstChild: boolean,
  now: Date,
): Step<void> {
  const { notes } = s.t;
  // Its notes' embeddings change notebooks in the binary index's log: this unit's turn first.
  if (target.notebookId !== note.notebookId) yield* takeLogWritersTurn(s);
  const order = asFirstChild ? yield* orderForFirstChild(s, target.id) : yield* orderAfter(s, target);
  const parentId = asFirstChild ? target.id : target.parentId;
  yield* run(s, s.db.update(notes).set({ parentId, siblingOrder: order, updatedAt: now }).where(eq(notes.id, note.id)));
  if (target.notebookId !== note.notebookId) yield* moveSubtreeToNotebook(s, note.id, target.notebookId);
}

/**
 * Moves the source under the target (first or last child). A notebook's head note brings its
 * whole notebook along: the emptied notebook goes.
 */
export function* moveUnder(
  s: Session,
  source: Pick<NoteRow, "id" | "notebookId" | "parentId">,
  target: Pick<NoteRow, "id" | "notebookId">,
  asFirstChild: boolean,
  now: Date,
): Step<void> {
  const { notes, notebooks } = s.t;
  if (target.notebookId !== source.notebookId) yield* takeLogWritersTurn(s);
  const order = asFirstChild ? yield* orderForFirstChild(s, target.id) : yield* orderForLastChild(s, target.id);
  yield* run(s, s.db.update(notes).set({ parentId: target.id, siblingOrder: order, updatedAt: now }).where(eq(notes.id, source.id)));
  if (target.notebookId !== source.notebookId) {
    yield* moveSubtreeToNotebook(s, source.id, target.notebookId);
    if (source.parentId === null) yield* run(s, s.db.delete(notebooks).where(eq(notebooks.id, source.notebookId)));
  }
}
