/**
 * Notebooks: creating one with its head note (and what Wikidata gave it) in one unit, their
 * settings, and the rows a notebook card shows (its head note, its creator's name, its circle).
 */
import { and, desc, eq, isNull, type SQL, sql } from "drizzle-orm";
import type { notebooks } from "../../db/schema";
import { all, inIds, one, prepared, run, type Session, type Step } from "../session";
import { insertNote } from "./insert-note";
import { type NotebookRow, type NoteRow, notesByIds } from "./note-rows";
import { applyEnrichment, type WikidataEnrichment } from "./wikidata";

export type NotebookChanges = Partial<
  Pick<typeof notebooks.$inferInsert, "skipMemoryTrackingEntirely" | "numberOfQuestionsInAssessment" | "certificateExpiry">
>;

/** What a notebook card shows beside the notebook: its head note, its creator's name and its circle. */
export interface NotebookCard {
  notebook: NotebookRow;
  head: NoteRow | undefined;
  creatorName: string | undefined;
  circle: { id: number; name: string } | undefined;
}

/**
 * Creates a notebook with its head note (and the enrichment fetched for its Wikidata id) in one
 * unit; answers the ids and the notes whose text the enrichment changed.
 */
export function* createNotebook(
  s: Session,
  creatorId: number,
  circleId: number | null,
  head: { title: string; wikidataId: string | null },
  enrichment: WikidataEnrichment | undefined,
  now: Date,
): Step<{ noteId: number; notebookId: number; changed: number[] }> {
  const { notebooks } = s.t;
  const notebook = (yield* one(s, s.db.insert(notebooks).values({ creatorId, circleId, createdAt: now, updatedAt: now }).returning()))!;
  const note = yield* insertNote(s, now, { headOf: notebook.id }, head);
  yield* run(s, s.db.update(notebooks).set({ headNoteId: note.id }).where(eq(notebooks.id, notebook.id)));
  const changed = enrichment ? yield* applyEnrichment(s, note.id, enrichment, now) : [];
  return { noteId: note.id, notebookId: notebook.id, changed };
}

/** Changes a notebook's settings; answers the notebook as changed. */
export function* updateNotebookSettings(
  s: Session,
  notebookId: number,
  changes: NotebookChanges,
  now: Date,
): Step<NotebookRow | undefined> {
  const { notebooks } = s.t;
  return yield* one(
    s,
    s.db
      .update(notebooks)
      .set({ ...changes, updatedAt: now })
      .where(eq(notebooks.id, notebookId))
      .returning(),
  );
}

/** Which live notebooks: every one, a circle's, or these. */
export type NotebookSelection = { every: true } | { circleId: number } | { ids: number[] };

/** Notebooks whose head note is not deleted, newest first, with their heads. */
export function* liveNotebooks(s: Session, selection: NotebookSelection): Step<{ notebook: NotebookRow; head: NoteRow }[]> {
  const { notebooks, notes } = s.t;
  let where: SQL | undefined;
  if ("circleId" in selection) where = eq(notebooks.circleId, selection.circleId);
  else if ("ids" in selection) {
    if (selection.ids.length === 0) return [];
    where = inIds(s, notebooks.id, selection.ids);
  }
  return yield* all(
    s,
    s.db
      .select({ notebook: notebooks, head: notes })
      .from(notebooks)
      .innerJoin(notes, eq(notebooks.headNoteId, notes.id))
      .where(and(where, isNull(notes.deletedAt)))
      .orderBy(desc(notebooks.id)),
  );
}

/** The user's live personal notebooks (circle notebooks are on their circle's page), newest first: the notebooks page asks on every load. */
export function* livePersonalNotebooks(s: Session, userId: number): Step<{ notebook: NotebookRow; head: NoteRow }[]> {
  const { notebooks, notes } = s.t;
  const query = prepared(s, "live-personal-notebooks-of-user", () =>
    s.db
      .select({ notebook: notebooks, head: notes })
      .from(notebooks)
      .innerJoin(notes, eq(notebooks.headNoteId, notes.id))
      .where(and(eq(notebooks.creatorId, sql.placeholder("userId")), isNull(notebooks.circleId), isNull(notes.deletedAt)))
      .orderBy(desc(notebooks.id)),
  );
  return yield* all(s, query, { userId });
}

/** The cards of these notebooks, in their order; `heads` may hold head notes already loaded. */
export function* notebookCards(s: Session, list: NotebookRow[], heads: NoteRow[] = []): Step<NotebookCard[]> {
  const { users, circles } = s.t;
  const known = new Map(heads.map((head) => [head.id, head]));
  const missing = list.flatMap((n) => (n.headNoteId !== null && !known.has(n.headNoteId) ? [n.headNoteId] : []));
  for (const head of yield* notesByIds(s, [...new Set(missing)])) known.set(head.id, head);
  const nameOf = prepared(s, "name-of-user", () =>
    s.db
      .select({ name: users.name })
      .from(users)
      .where(eq(users.id, sql.placeholder("userId"))),
  );
  const circleById = prepared(s, "circle-by-id", () =>
    s.db
      .select({ id: circles.id, name: circles.name })
      .from(circles)
      .where(eq(circles.id, sql.placeholder("id"))),
  );
  const names = new Map<number, string | undefined>();
  const circleOf = new Map<number, { id: number; name: string } | undefined>();
  const cards: NotebookCard[] = [];
  for (const notebook of list) {
    if (!names.has(notebook.creatorId)) names.set(notebook.creatorId, (yield* one(s, nameOf, { userId: notebook.creatorId }))?.name);
    if (notebook.circleId !== null && !circleOf.has(notebook.circleId)) {
      circleOf.set(notebook.circleId, yield* one(s, circleById, { id: notebook.circleId }));
    }
    cards.push({
      notebook,
      head: notebook.headNoteId === null ? undefined : known.get(notebook.headNoteId),
      creatorName: names.get(notebook.creatorId),
      circle: notebook.circleId === null ? undefined : circleOf.get(notebook.circleId),
    });
  }
  return cards;
}

/** Every undeleted note of a notebook, by id. */
export function* notesOfNotebook(s: Session, notebookId: number): Step<NoteRow[]> {
  const { notes } = s.t;
  return yield* all(
    s,
    s.db
      .select()
      .from(notes)
      .where(and(eq(notes.notebookId, notebookId), isNull(notes.deletedAt)))
      .orderBy(notes.id),
  );
}
