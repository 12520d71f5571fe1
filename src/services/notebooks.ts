import { and, desc, eq, isNull, type SQL, sql } from "drizzle-orm";
import type { AppContext } from "../context";
import { prepared } from "../db/prepared";
import { notebooks, notes } from "../db/schema";
import { parseExpiry } from "./assessments/expiry";
import { ValidationError } from "./errors";
import { insertNote } from "./notes/insert-note";
import { type NotebookJson, NotePresenter, presentNotebook } from "./notes/presenters";
import { getNotebook } from "./notes/rows";
import { validTitle, validWikidataId } from "./notes/validation";
import { authorizeEdit, authorizeRead, type Reader } from "./policies";
import { type SubscriptionJson, subscriptionsOf } from "./sharing/subscriptions";
import type { CurrentUser } from "./users";
import { applyWikidataEnrichment, prepareWikidataEnrichment, type WikidataEnrichment } from "./wikidata/enrichment";

/**
 * Creates a notebook with its head note, in one transaction; answers the head note's id
 * (the RedirectToNoteResponse).
 */
export function createNotebook(
  ctx: AppContext,
  current: CurrentUser,
  input: { newTitle: string; wikidataId?: string },
  enrichment?: WikidataEnrichment,
  circleId: number | null = null,
) {
  const title = validTitle(input.newTitle);
  const wikidataId = validWikidataId(input.wikidataId);
  const now = ctx.clock.now();
  const created = ctx.db.transaction((tx) => {
    const notebook = tx
      .insert(notebooks)
      .values({ creatorId: current.user.id, circleId, createdAt: now, updatedAt: now })
      .returning()
      .get();
    const head = insertNote(tx, now, { headOf: notebook.id }, { title, wikidataId });
    tx.update(notebooks).set({ headNoteId: head.id }).where(eq(notebooks.id, notebook.id)).run();
    return { noteId: head.id, notebookId: notebook.id };
  });
  if (enrichment) applyWikidataEnrichment(ctx, created.noteId, enrichment);
  return created;
}

/** createNotebook with the Wikidata enrichment fetched first (the API's entry); in a circle when circleId is given. */
export async function addNotebook(
  ctx: AppContext,
  current: CurrentUser,
  input: { newTitle: string; wikidataId?: string },
  circleId: number | null = null,
) {
  validTitle(input.newTitle);
  const wikidataId = validWikidataId(input.wikidataId);
  const enrichment = wikidataId ? await prepareWikidataEnrichment(ctx, 0, wikidataId, { subNotes: true }) : undefined;
  return createNotebook(ctx, current, input, enrichment, circleId);
}

/** GET /notebooks (NotebooksViewedByUser): the user's notebooks and subscriptions. */
export interface NotebooksJson {
  notebooks: NotebookJson[];
  subscriptions: SubscriptionJson[];
}

/** Notebooks with their head notes, newest first; those whose head note is deleted are gone. */
export function presentLiveNotebooks(ctx: AppContext, reader: Reader, where: SQL | undefined): NotebookJson[] {
  return ctx.db
    .select({ notebook: notebooks, head: notes })
    .from(notebooks)
    .innerJoin(notes, eq(notebooks.headNoteId, notes.id))
    .where(and(where, isNull(notes.deletedAt)))
    .orderBy(desc(notebooks.id))
    .all()
    .map(({ notebook, head }) => presentNotebook(ctx, reader, notebook, head));
}

/** The user's personal notebooks (circle notebooks are on their circle's page) and subscriptions. */
export function notebooksOfUser(ctx: AppContext, current: CurrentUser): NotebooksJson {
  // The same rows as presentLiveNotebooks, from one cached statement: the notebooks page asks on every load.
  const rows = prepared(ctx.db, "live-personal-notebooks-of-user", (db) =>
    db
      .select({ notebook: notebooks, head: notes })
      .from(notebooks)
      .innerJoin(notes, eq(notebooks.headNoteId, notes.id))
      .where(and(eq(notebooks.creatorId, sql.placeholder("userId")), isNull(notebooks.circleId), isNull(notes.deletedAt)))
      .orderBy(desc(notebooks.id))
      .prepare(),
  ).all({ userId: current.user.id });
  return {
    notebooks: rows.map(({ notebook, head }) => presentNotebook(ctx, current, notebook, head)),
    subscriptions: subscriptionsOf(ctx, current),
  };
}

export function showNotebook(ctx: AppContext, current: CurrentUser | undefined, notebookId: number): NotebookJson {
  const notebook = getNotebook(ctx, notebookId);
  authorizeRead(ctx, current, notebook);
  return presentNotebook(ctx, current, notebook);
}

export interface NotebookSettingsInput {
  skipMemoryTrackingEntirely?: boolean;
  numberOfQuestionsInAssessment?: number | null;
  certificateExpiry?: string;
}

/** Changes the notebook settings; the certificate expiry reads like "1y 1m 1d" (each part optional). */
export function updateNotebookSettings(ctx: AppContext, current: CurrentUser, notebookId: number, input: NotebookSettingsInput) {
  const notebook = getNotebook(ctx, notebookId);
  authorizeEdit(ctx, current, notebook);
  const errors: Record<string, string> = {};
  const changes: Partial<typeof notebooks.$inferInsert> = { updatedAt: ctx.clock.now() };
  if (input.skipMemoryTrackingEntirely !== undefined) changes.skipMemoryTrackingEntirely = input.skipMemoryTrackingEntirely;
  if (input.numberOfQuestionsInAssessment !== undefined) {
    const n = input.numberOfQuestionsInAssessment;
    if (n !== null && (!Number.isInteger(n) || n < 0 || n > 1000)) {
      errors.numberOfQuestionsInAssessment = "must be a whole number from 0 to 1000";
    } else changes.numberOfQuestionsInAssessment = n;
  }
  if (input.certificateExpiry !== undefined) {
    const expiry = input.certificateExpiry.trim();
    if (!parseExpiry(expiry)) errors.certificateExpiry = 'must look like "1y 1m 1d" (years, months, days)';
    else changes.certificateExpiry = expiry;
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  const updated = ctx.db.update(notebooks).set(changes).where(eq(notebooks.id, notebookId)).returning().get()!;
  return presentNotebook(ctx, current, updated);
}

/** Every undeleted note of a notebook (GET /notebooks/{notebook}/notes). */
export function notesOfNotebook(ctx: AppContext, current: CurrentUser | undefined, notebookId: number) {
  const notebook = getNotebook(ctx, notebookId);
  authorizeRead(ctx, current, notebook);
  const rows = ctx.db
    .select()
    .from(notes)
    .where(and(eq(notes.notebookId, notebookId), isNull(notes.deletedAt)))
    .orderBy(notes.id)
    .all();
  const presenter = new NotePresenter(ctx, current).preload(rows);
  return rows.map((row) => presenter.note(row));
}
