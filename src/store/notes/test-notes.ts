/** Notes made by the testability hooks (test data is trusted: inserted as given). */
import { and, eq, isNull } from "drizzle-orm";
import { one, run, type Session, type Step } from "../session";
import { insertNote, type NewNoteColumns } from "./insert-note";

export interface TestNoteRow {
  title: string;
  /** A row without a parent title starts a notebook. */
  parentTitle: string | undefined;
  columns: NewNoteColumns;
}

/** The first undeleted note titled so in a notebook the user created. */
function* existingNoteOf(s: Session, userId: number, title: string): Step<{ id: number; notebookId: number } | undefined> {
  const { notes, notebooks } = s.t;
  return yield* one(
    s,
    s.db
      .select({ id: notes.id, notebookId: notes.notebookId })
      .from(notes)
      .innerJoin(notebooks, eq(notes.notebookId, notebooks.id))
      .where(and(eq(notebooks.creatorId, userId), eq(notes.title, title), isNull(notes.deletedAt)))
      .limit(1),
  );
}

/**
 * Creates the notes in row order for a user, in one unit: a parent title is looked up among the
 * rows made before it, then among the user's notes (`parentNotFound` throws when it is neither,
 * and nothing is made). Answers each title's note id.
 */
export function* injectNotes(
  s: Session,
  ownerId: number,
  circleId: number | null,
  rows: TestNoteRow[],
  now: Date,
  parentNotFound: (title: string) => never,
): Step<Record<string, number>> {
  const { notebooks } = s.t;
  const created: Record<string, number> = {};
  const createdRows = new Map<string, { id: number; notebookId: number }>();
  for (const row of rows) {
    let note: { id: number; notebookId: number };
    if (!row.parentTitle) {
      const notebook = (yield* one(
        s,
        s.db.insert(notebooks).values({ creatorId: ownerId, circleId, createdAt: now, updatedAt: now }).returning(),
      ))!;
      note = yield* insertNote(s, now, { headOf: notebook.id }, row.columns);
      yield* run(s, s.db.update(notebooks).set({ headNoteId: note.id }).where(eq(notebooks.id, notebook.id)));
    } else {
      const parent = createdRows.get(row.parentTitle) ?? (yield* existingNoteOf(s, ownerId, row.parentTitle));
      if (!parent) parentNotFound(row.parentTitle);
      note = yield* insertNote(s, now, { lastChildOf: parent }, row.columns);
    }
    createdRows.set(row.title, note);
    created[row.title] = note.id;
  }
  return created;
}
