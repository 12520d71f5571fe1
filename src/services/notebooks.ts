import type { AppContext } from "../context";
import type { NotebookChanges, NotebookSelection } from "../store/notes/notes-store";
import { parseExpiry } from "./assessments/expiry";
import { NotFoundError, ValidationError } from "./errors";
import { noteTextSaved } from "./notes/note-changes";
import { type NotebookJson, NotePresenter, notebookJson, presentNotebooks } from "./notes/presenters";
import { requireNotebook } from "./notes/rows";
import { validTitle, validWikidataId } from "./notes/validation";
import { authorizeEdit, authorizeRead, type Reader } from "./policies";
import { type SubscriptionJson, subscriptionsOf } from "./sharing/subscriptions";
import type { CurrentUser } from "./users";
import { prepareWikidataEnrichment, type WikidataEnrichment } from "./wikidata/enrichment";

/**
 * Creates a notebook with its head note, in one transaction; answers the head note's id
 * (the RedirectToNoteResponse).
 */
export async function createNotebook(
  ctx: AppContext,
  current: CurrentUser,
  input: { newTitle: string; wikidataId?: string },
  enrichment?: WikidataEnrichment,
  circleId: number | null = null,
) {
  const title = validTitle(input.newTitle);
  const wikidataId = validWikidataId(input.wikidataId);
  const { changed, ...created } = await ctx.stores.notes.createNotebook(
    current.user.id,
    circleId,
    { title, wikidataId },
    enrichment,
    ctx.clock.now(),
  );
  for (const id of changed) noteTextSaved(ctx, id);
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
export async function presentLiveNotebooks(ctx: AppContext, reader: Reader, selection: NotebookSelection): Promise<NotebookJson[]> {
  const rows = await ctx.stores.notes.liveNotebooks(selection);
  return presentNotebooks(
    ctx,
    reader,
    rows.map((row) => row.notebook),
    rows.map((row) => row.head),
  );
}

/** The user's personal notebooks (circle notebooks are on their circle's page) and subscriptions. */
export async function notebooksOfUser(ctx: AppContext, current: CurrentUser): Promise<NotebooksJson> {
  const rows = await ctx.stores.notes.livePersonalNotebooks(current.user.id);
  return {
    notebooks: await presentNotebooks(
      ctx,
      current,
      rows.map((row) => row.notebook),
      rows.map((row) => row.head),
    ),
    subscriptions: await subscriptionsOf(ctx, current),
  };
}

export async function showNotebook(ctx: AppContext, current: CurrentUser | undefined, notebookId: number): Promise<NotebookJson> {
  const notebook = await requireNotebook(ctx, notebookId);
  await authorizeRead(ctx, current, notebook);
  const [card] = await ctx.stores.notes.notebookCards([notebook]);
  return notebookJson(current, card!);
}

export interface NotebookSettingsInput {
  skipMemoryTrackingEntirely?: boolean;
  numberOfQuestionsInAssessment?: number | null;
  certificateExpiry?: string;
}

/** Changes the notebook settings; the certificate expiry reads like "1y 1m 1d" (each part optional). */
export async function updateNotebookSettings(ctx: AppContext, current: CurrentUser, notebookId: number, input: NotebookSettingsInput) {
  const notebook = await requireNotebook(ctx, notebookId);
  await authorizeEdit(ctx, current, notebook);
  const errors: Record<string, string> = {};
  const changes: NotebookChanges = {};
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
  const updated = await ctx.stores.notes.updateNotebookSettings(notebookId, changes, ctx.clock.now());
  if (!updated) throw new NotFoundError("Notebook");
  return (await presentNotebooks(ctx, current, [updated]))[0]!;
}

/** Every undeleted note of a notebook (GET /notebooks/{notebook}/notes). */
export async function notesOfNotebook(ctx: AppContext, current: CurrentUser | undefined, notebookId: number) {
  const notebook = await requireNotebook(ctx, notebookId);
  await authorizeRead(ctx, current, notebook);
  const rows = await ctx.stores.notes.notesOfNotebook(notebookId);
  const presenter = await new NotePresenter(ctx, current).load(rows);
  return rows.map((row) => presenter.note(row));
}
