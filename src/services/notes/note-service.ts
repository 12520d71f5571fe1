import type { AppContext } from "../../context";
import { BadRequestError, NotFoundError, ValidationError } from "../errors";
import { isLinkType } from "../links/link-types";
import { authorizeEdit, authorizeMoveNote, authorizeRead, notebookRole } from "../policies";
import { ReadableNotes } from "../policies/readable-notes";
import type { CurrentUser } from "../users";
import { prepareWikidataEnrichment, type WikidataEnrichment } from "../wikidata/enrichment";
import { assertWikidataIdUnique } from "../wikidata/uniqueness";
import { noteTextSaved } from "./note-changes";
import {
  CHILDREN_PAGE_SIZE,
  type ChildrenLimit,
  type ChildrenPageJson,
  MAX_CHILDREN_PAGE_SIZE,
  type NoteRealmJson,
  noteRealm,
  presentChildrenPage,
  presentRealm,
  realmOf,
} from "./presenters";
import { type NoteRow, requireNoteWithNotebook } from "./rows";
import { type TextField, textToWrite } from "./text-save";
import { validDetails, validTitle, validWikidataId } from "./validation";

/**
 * A note the user may read, loaded and authorised once: its NoteRealm, plus what the note page
 * also shows (the row, its ancestors from the notebook's head down, whether it is read-only, and
 * whether the reader reads it as a subscriber).
 */
export async function readNote(
  ctx: AppContext,
  current: CurrentUser | undefined,
  noteId: number,
  options: { childrenLimit?: ChildrenLimit } = {},
) {
  const { notebook } = await requireNoteWithNotebook(ctx, noteId);
  const access = await authorizeRead(ctx, current, notebook);
  const readonly = access !== "edit";
  // Only a read-only reader can be a subscriber or a bazaar reader: an editor's role is not asked for twice.
  const role = readonly ? await notebookRole(ctx, current, notebook) : undefined;
  const fromBazaar = role === "bazaar-reader";
  const readable = await ReadableNotes.of(ctx, current);
  const rows = await ctx.stores.notes.realmRows(noteId, options.childrenLimit ?? CHILDREN_PAGE_SIZE, (id) => readable.notebook(id));
  if (!rows) throw new NotFoundError("Note");
  return {
    realm: presentRealm(ctx, readable, rows, fromBazaar),
    note: rows.note,
    ancestors: rows.ancestors,
    readonly,
    fromBazaar,
    subscribed: role === "subscriber",
  };
}

/**
 * A page of the children of a note the user may read (GET /notes/{note}/children): `limit` of them
 * after the child `after` (from the first without it). `after` must be a child of the note (a
 * deleted one keeps its place); one moved elsewhere since is refused rather than guessed at.
 */
export async function listChildren(
  ctx: AppContext,
  current: CurrentUser | undefined,
  noteId: number,
  { after, limit = CHILDREN_PAGE_SIZE }: { after?: number; limit?: number },
): Promise<ChildrenPageJson> {
  const { note, notebook } = await requireNoteWithNotebook(ctx, noteId);
  await authorizeRead(ctx, current, notebook);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_CHILDREN_PAGE_SIZE) {
    throw new ValidationError({ limit: `must be from 1 to ${MAX_CHILDREN_PAGE_SIZE}` });
  }
  const afterNote = after === undefined ? undefined : await ctx.stores.notes.noteById(after);
  if (after !== undefined && afterNote?.parentId !== note.id) {
    throw new ValidationError({ after: "must be a child of the note" });
  }
  return presentChildrenPage(ctx, current, note.id, limit, afterNote);
}

/** The NoteRealm of a note the user may read (GET /notes/{note}). */
export async function showNote(ctx: AppContext, current: CurrentUser | undefined, noteId: number): Promise<NoteRealmJson> {
  return (await readNote(ctx, current, noteId)).realm;
}

/** A note the user may edit, or the matching refusal. */
export async function editableNote(ctx: AppContext, current: CurrentUser | undefined, noteId: number): Promise<NoteRow> {
  const { note, notebook } = await requireNoteWithNotebook(ctx, noteId);
  await authorizeEdit(ctx, current, notebook);
  return note;
}

interface NewNote {
  newTitle: string;
  wikidataId?: string;
}

/** Where a new note goes: the last child of note `under`, or right after note `after` among its siblings. */
export type NotePlacement = { under: number } | { after: number };

/** A placement with its note loaded and authorised. */
type Anchored = { under: NoteRow } | { after: NoteRow };

async function anchored(ctx: AppContext, current: CurrentUser, placement: NotePlacement): Promise<Anchored> {
  return "under" in placement
    ? { under: await editableNote(ctx, current, placement.under) }
    : { after: await editableNote(ctx, current, placement.after) };
}

const anchorNote = (at: Anchored) => ("under" in at ? at.under : at.after);

/**
 * What a new note with a Wikidata id gets from Wikidata (details, sub-notes), fetched before
 * anything is written, so an unreachable Wikidata leaves nothing half-made.
 */
export async function wikidataEnrichmentFor(ctx: AppContext, notebookId: number, wikidataId: string | undefined) {
  const id = validWikidataId(wikidataId);
  if (!id) return undefined;
  await assertWikidataIdUnique(ctx, notebookId, id);
  return prepareWikidataEnrichment(ctx, notebookId, id, { subNotes: true });
}

/** createNote with the Wikidata enrichment fetched first (the API's entry). */
export async function addNote(ctx: AppContext, current: CurrentUser, placement: NotePlacement, input: NewNote) {
  const at = await anchored(ctx, current, placement);
  const enrichment = await wikidataEnrichmentFor(ctx, anchorNote(at).notebookId, input.wikidataId);
  // Only after a call to Wikidata is the placement loaded again: the note may have moved or gone meanwhile.
  return createAt(ctx, current, enrichment ? await anchored(ctx, current, placement) : at, input, enrichment);
}

/** Adds a note at the placement; answers {created, parent}. */
export async function createNote(
  ctx: AppContext,
  current: CurrentUser,
  placement: NotePlacement,
  input: NewNote,
  enrichment?: WikidataEnrichment,
) {
  return createAt(ctx, current, await anchored(ctx, current, placement), input, enrichment);
}

async function createAt(ctx: AppContext, current: CurrentUser, at: Anchored, input: NewNote, enrichment?: WikidataEnrichment) {
  const anchor = anchorNote(at);
  if ("under" in at && anchor.deletedAt) throw new BadRequestError("Cannot add a note under a deleted note");
  if ("after" in at && anchor.parentId === null) throw new BadRequestError("A notebook's head note has no siblings");
  const title = validTitle(input.newTitle);
  const wikidataId = validWikidataId(input.wikidataId);
  await assertWikidataIdUnique(ctx, anchor.notebookId, wikidataId);
  const slot = "under" in at ? { lastChildOf: anchor } : { after: anchor };
  const { note: created, changed } = await ctx.stores.notes.addNote(ctx.clock.now(), slot, { title, wikidataId }, enrichment);
  for (const id of changed) noteTextSaved(ctx, id);
  const parentId = "under" in at ? anchor.id : anchor.parentId!;
  const [createdRealm, parentRealm] = await Promise.all([realmOf(ctx, current, created), noteRealm(ctx, current, parentId)]);
  return { created: createdRealm, parent: parentRealm };
}

/**
 * Saves a note's title or details. `baseRevision` is the revision the editor started from: what
 * others saved since is merged in (text-save.ts); without it the text is written as sent. The
 * text sent is checked first, the text written (merged) again against the note as it is then.
 */
async function saveText(
  ctx: AppContext,
  current: CurrentUser | undefined,
  noteId: number,
  field: TextField,
  input: { sent: string; baseRevision: number | undefined },
  valid: { sent: (text: string) => string; written: (text: string, note: NoteRow) => string },
): Promise<NoteRealmJson> {
  await editableNote(ctx, current, noteId);
  const sent = valid.sent(input.sent);
  const updated = await ctx.stores.notes.saveText(
    noteId,
    field,
    input.baseRevision,
    (note, baseText) => valid.written(textToWrite(note, field, sent, input.baseRevision, baseText), note),
    ctx.clock.now(),
  );
  if (!updated) throw new NotFoundError("Note");
  noteTextSaved(ctx, updated.id);
  return realmOf(ctx, current, updated);
}

/** A title to write; a link's title is its type: it changes only to another link type. */
function writtenTitle(text: string, note: NoteRow): string {
  const title = validTitle(text);
  if (note.targetNoteId !== null && (!isLinkType(title) || title === "no link")) {
    throw new ValidationError({ newTitle: "must be one of the link types" });
  }
  return title;
}

/** Saves a note's title (`baseRevision`: see saveText). */
export function updateTitle(ctx: AppContext, current: CurrentUser | undefined, noteId: number, newTitle: string, baseRevision?: number) {
  return saveText(ctx, current, noteId, "title", { sent: newTitle, baseRevision }, { sent: validTitle, written: writtenTitle });
}

/** Saves a note's details; `baseRevision` as for updateTitle. */
export function updateDetails(ctx: AppContext, current: CurrentUser | undefined, noteId: number, details: string, baseRevision?: number) {
  return saveText(ctx, current, noteId, "details", { sent: details, baseRevision }, { sent: validDetails, written: validDetails });
}

/** The realm of the note's parent, or nothing for a notebook's head note. */
const parentRealms = async (ctx: AppContext, current: CurrentUser, note: NoteRow) =>
  note.parentId === null ? [] : [await noteRealm(ctx, current, note.parentId)];

/**
 * Soft-deletes the note and its undeleted descendants, marked with the note as their deletion
 * root (so undo restores exactly them, even when two deletions share a timestamp). Answers the
 * affected realms, the first being the new focus: the parent, or nothing for a notebook's head note.
 */
export async function deleteNote(ctx: AppContext, current: CurrentUser, noteId: number): Promise<NoteRealmJson[]> {
  const note = await editableNote(ctx, current, noteId);
  if (!note.deletedAt) await ctx.stores.notes.softDeleteSubtree(note.id, ctx.clock.now());
  return parentRealms(ctx, current, note);
}

/** Restores a deleted note and the descendants deleted with it; answers the restored note's realm. */
export async function undoDeleteNote(ctx: AppContext, current: CurrentUser, noteId: number): Promise<NoteRealmJson> {
  const note = await editableNote(ctx, current, noteId);
  if (note.deletedAt) await ctx.stores.notes.restoreSubtree(note.id);
  return realmOf(ctx, current, note);
}

/**
 * Moves a note: as the first child of the target, or right after the target among the same
 * siblings, as the policy's move rule allows (authorizeMoveNote). Refused: moving a note under
 * itself or its descendants, after a note with a different parent, or a notebook's head note.
 * Answers the realms of the old and new parents.
 */
export async function moveNote(ctx: AppContext, current: CurrentUser, noteId: number, targetId: number, asFirstChild: boolean) {
  const note = await editableNote(ctx, current, noteId);
  const target = await requireNoteWithNotebook(ctx, targetId);
  const from = await ctx.stores.notes.notebookById(note.notebookId);
  if (!from) throw new NotFoundError("Notebook");
  await authorizeMoveNote(ctx, current, { from, to: target.notebook, headNote: false });
  if (note.parentId === null) throw new BadRequestError("A notebook's head note cannot be moved");
  if (note.id === target.note.id) throw new BadRequestError("A note cannot be moved relative to itself");
  if (!asFirstChild && target.note.parentId !== note.parentId) {
    throw new BadRequestError("A note can only be moved after one of its siblings");
  }
  const newParentId = asFirstChild ? target.note.id : target.note.parentId!;
  if (newParentId === note.id || (await ctx.stores.notes.descendantIds(note.id)).includes(newParentId)) {
    throw new BadRequestError("A note cannot be moved under itself or its descendants");
  }
  await ctx.stores.notes.moveNote(note, target.note, asFirstChild, ctx.clock.now());
  const parents = [...new Set([note.parentId, newParentId])];
  return Promise.all(parents.map((id) => noteRealm(ctx, current, id)));
}
