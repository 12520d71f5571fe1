import { and, eq, inArray, isNull } from "drizzle-orm";
import type { AppContext } from "../../context";
import { notes } from "../../db/schema";
import { BadRequestError, ValidationError } from "../errors";
import { isLinkType } from "../links/link-types";
import { authorizeEdit, authorizeMoveNote, authorizeRead, notebookRole } from "../policies";
import type { CurrentUser } from "../users";
import { applyWikidataEnrichment, prepareWikidataEnrichment, type WikidataEnrichment } from "../wikidata/enrichment";
import { assertWikidataIdUnique } from "../wikidata/uniqueness";
import { insertNote } from "./insert-note";
import { noteTextSaved } from "./note-changes";
import {
  CHILDREN_PAGE_SIZE,
  type ChildrenLimit,
  type ChildrenPageJson,
  MAX_CHILDREN_PAGE_SIZE,
  type NoteRealmJson,
  presentChildrenPage,
  presentNoteRealm,
  realmOf,
} from "./presenters";
import { ancestorsOf, descendantIds, findNote, getNote, getNotebook, type NoteRow } from "./rows";
import { orderAfter, orderForFirstChild } from "./sibling-order";
import { textToWrite } from "./text-save";
import { validDetails, validTitle, validWikidataId } from "./validation";

/**
 * A note the user may read, loaded and authorised once: its NoteRealm, plus what the note page
 * also shows (the row, its ancestors from the notebook's head down, whether it is read-only, and
 * whether the reader reads it as a subscriber).
 */
export function readNote(
  ctx: AppContext,
  current: CurrentUser | undefined,
  noteId: number,
  options: { childrenLimit?: ChildrenLimit } = {},
) {
  const note = getNote(ctx, noteId);
  const notebook = getNotebook(ctx, note.notebookId);
  const access = authorizeRead(ctx, current, notebook);
  const readonly = access !== "edit";
  // Only a read-only reader can be a subscriber or a bazaar reader: an editor's role is not asked for twice.
  const role = readonly ? notebookRole(ctx, current, notebook) : undefined;
  const fromBazaar = role === "bazaar-reader";
  const ancestors = ancestorsOf(ctx, note);
  return {
    realm: presentNoteRealm(ctx, current, note, notebook, ancestors, fromBazaar, options),
    note,
    ancestors,
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
export function listChildren(
  ctx: AppContext,
  current: CurrentUser | undefined,
  noteId: number,
  { after, limit = CHILDREN_PAGE_SIZE }: { after?: number; limit?: number },
): ChildrenPageJson {
  const note = getNote(ctx, noteId);
  authorizeRead(ctx, current, getNotebook(ctx, note.notebookId));
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_CHILDREN_PAGE_SIZE) {
    throw new ValidationError({ limit: `must be from 1 to ${MAX_CHILDREN_PAGE_SIZE}` });
  }
  const afterNote = after === undefined ? undefined : findNote(ctx, after);
  if (after !== undefined && afterNote?.parentId !== note.id) {
    throw new ValidationError({ after: "must be a child of the note" });
  }
  return presentChildrenPage(ctx, current, note.id, limit, afterNote);
}

/** The NoteRealm of a note the user may read (GET /notes/{note}). */
export function showNote(ctx: AppContext, current: CurrentUser | undefined, noteId: number): NoteRealmJson {
  return readNote(ctx, current, noteId).realm;
}

/** A note the user may edit, or the matching refusal. */
export function editableNote(ctx: AppContext, current: CurrentUser | undefined, noteId: number): NoteRow {
  const note = getNote(ctx, noteId);
  authorizeEdit(ctx, current, getNotebook(ctx, note.notebookId));
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

function anchored(ctx: AppContext, current: CurrentUser, placement: NotePlacement): Anchored {
  return "under" in placement
    ? { under: editableNote(ctx, current, placement.under) }
    : { after: editableNote(ctx, current, placement.after) };
}

const anchorNote = (at: Anchored) => ("under" in at ? at.under : at.after);

/**
 * What a new note with a Wikidata id gets from Wikidata (details, sub-notes), fetched before
 * anything is written, so an unreachable Wikidata leaves nothing half-made.
 */
export async function wikidataEnrichmentFor(ctx: AppContext, notebookId: number, wikidataId: string | undefined) {
  const id = validWikidataId(wikidataId);
  if (!id) return undefined;
  assertWikidataIdUnique(ctx, notebookId, id);
  return prepareWikidataEnrichment(ctx, notebookId, id, { subNotes: true });
}

/** createNote with the Wikidata enrichment fetched first (the API's entry). */
export async function addNote(ctx: AppContext, current: CurrentUser, placement: NotePlacement, input: NewNote) {
  const at = anchored(ctx, current, placement);
  const enrichment = await wikidataEnrichmentFor(ctx, anchorNote(at).notebookId, input.wikidataId);
  // Only after a call to Wikidata is the placement loaded again: the note may have moved or gone meanwhile.
  return createAt(ctx, current, enrichment ? anchored(ctx, current, placement) : at, input, enrichment);
}

/** Adds a note at the placement; answers {created, parent}. */
export function createNote(
  ctx: AppContext,
  current: CurrentUser,
  placement: NotePlacement,
  input: NewNote,
  enrichment?: WikidataEnrichment,
) {
  return createAt(ctx, current, anchored(ctx, current, placement), input, enrichment);
}

function createAt(ctx: AppContext, current: CurrentUser, at: Anchored, input: NewNote, enrichment?: WikidataEnrichment) {
  const anchor = anchorNote(at);
  if ("under" in at && anchor.deletedAt) throw new BadRequestError("Cannot add a note under a deleted note");
  if ("after" in at && anchor.parentId === null) throw new BadRequestError("A notebook's head note has no siblings");
  const title = validTitle(input.newTitle);
  const wikidataId = validWikidataId(input.wikidataId);
  assertWikidataIdUnique(ctx, anchor.notebookId, wikidataId);
  const now = ctx.clock.now();
  const slot = "under" in at ? { lastChildOf: anchor } : { after: anchor };
  const created = ctx.db.transaction((tx) => insertNote(tx, now, slot, { title, wikidataId }));
  if (enrichment) applyWikidataEnrichment(ctx, created.id, enrichment);
  const parent = "under" in at ? anchor : getNote(ctx, anchor.parentId!);
  return { created: realmOf(ctx, current, getNote(ctx, created.id)), parent: realmOf(ctx, current, parent) };
}

/**
 * Saves a note's title. `baseRevision` is the title revision the editor started from: what
 * others saved since is merged in (text-save.ts); without it the title is written as sent.
 */
export function updateTitle(ctx: AppContext, current: CurrentUser | undefined, noteId: number, newTitle: string, baseRevision?: number) {
  const updated = ctx.db.transaction((tx) => {
    const note = editableNote(ctx, current, noteId);
    const title = validTitle(textToWrite(ctx, note, "title", validTitle(newTitle), baseRevision));
    // A link's title is its type: it changes only to another link type.
    if (note.targetNoteId !== null && (!isLinkType(title) || title === "no link")) {
      throw new ValidationError({ newTitle: "must be one of the link types" });
    }
    tx.update(notes).set({ title, updatedAt: ctx.clock.now() }).where(eq(notes.id, note.id)).run();
    return getNote(ctx, note.id); // re-read: the revision is raised by a trigger
  });
  noteTextSaved(ctx, updated.id);
  return realmOf(ctx, current, updated);
}

/** Saves a note's details; `baseRevision` as for updateTitle. */
export function updateDetails(ctx: AppContext, current: CurrentUser | undefined, noteId: number, details: string, baseRevision?: number) {
  const updated = ctx.db.transaction((tx) => {
    const note = editableNote(ctx, current, noteId);
    const text = validDetails(textToWrite(ctx, note, "details", validDetails(details), baseRevision));
    tx.update(notes).set({ details: text, updatedAt: ctx.clock.now() }).where(eq(notes.id, note.id)).run();
    return getNote(ctx, note.id);
  });
  noteTextSaved(ctx, updated.id);
  return realmOf(ctx, current, updated);
}

/**
 * Soft-deletes the note and its undeleted descendants, marked with the note as their deletion
 * root (so undo restores exactly them, even when two deletions share a timestamp). Answers the affected realms, the first being the new focus: the parent, or
 * nothing for a notebook's head note.
 */
export function deleteNote(ctx: AppContext, current: CurrentUser, noteId: number): NoteRealmJson[] {
  const note = editableNote(ctx, current, noteId);
  if (note.deletedAt) return note.parentId === null ? [] : [realmOf(ctx, current, getNote(ctx, note.parentId))];
  const now = ctx.clock.now();
  ctx.db.transaction((tx) => {
    const ids = [note.id, ...descendantIds(ctx, note.id)];
    for (let i = 0; i < ids.length; i += 500) {
      tx.update(notes)
        .set({ deletedAt: now, deletionRootId: note.id })
        .where(and(inArray(notes.id, ids.slice(i, i + 500)), isNull(notes.deletedAt)))
        .run();
    }
  });
  return note.parentId === null ? [] : [realmOf(ctx, current, getNote(ctx, note.parentId))];
}

/** Restores a deleted note and the descendants deleted with it; answers the restored note's realm. */
export function undoDeleteNote(ctx: AppContext, current: CurrentUser, noteId: number): NoteRealmJson {
  const note = editableNote(ctx, current, noteId);
  if (note.deletedAt) {
    // Deletions from before deletion roots were recorded are matched by their timestamp.
    const sameDeletion = note.deletionRootId !== null ? eq(notes.deletionRootId, note.deletionRootId) : eq(notes.deletedAt, note.deletedAt);
    ctx.db.transaction((tx) => {
      const ids = [note.id, ...descendantIds(ctx, note.id)];
      for (let i = 0; i < ids.length; i += 500) {
        tx.update(notes)
          .set({ deletedAt: null, deletionRootId: null })
          .where(and(inArray(notes.id, ids.slice(i, i + 500)), sameDeletion))
          .run();
      }
    });
  }
  return realmOf(ctx, current, getNote(ctx, note.id));
}

/**
 * Moves a note: as the first child of the target, or right after the target among the same
 * siblings, as the policy's move rule allows (authorizeMoveNote). Refused: moving a note under
 * itself or its descendants, after a note with a different parent, or a notebook's head note.
 * Answers the realms of the old and new parents.
 */
export function moveNote(ctx: AppContext, current: CurrentUser, noteId: number, targetId: number, asFirstChild: boolean) {
  const note = editableNote(ctx, current, noteId);
  const target = getNote(ctx, targetId);
  authorizeMoveNote(ctx, current, { from: getNotebook(ctx, note.notebookId), to: getNotebook(ctx, target.notebookId), headNote: false });
  if (note.parentId === null) throw new BadRequestError("A notebook's head note cannot be moved");
  if (note.id === target.id) throw new BadRequestError("A note cannot be moved relative to itself");
  if (!asFirstChild && target.parentId !== note.parentId) {
    throw new BadRequestError("A note can only be moved after one of its siblings");
  }
  const newParentId = asFirstChild ? target.id : target.parentId!;
  if (newParentId === note.id || descendantIds(ctx, note.id).includes(newParentId)) {
    throw new BadRequestError("A note cannot be moved under itself or its descendants");
  }
  const oldParentId = note.parentId;
  ctx.db.transaction((tx) => {
    const order = asFirstChild ? orderForFirstChild(tx, target.id) : orderAfter(tx, target);
    tx.update(notes).set({ parentId: newParentId, siblingOrder: order, updatedAt: ctx.clock.now() }).where(eq(notes.id, note.id)).run();
    if (target.notebookId !== note.notebookId) {
      const ids = [note.id, ...descendantIds(ctx, note.id)];
      for (let i = 0; i < ids.length; i += 500) {
        tx.update(notes)
          .set({ notebookId: target.notebookId })
          .where(inArray(notes.id, ids.slice(i, i + 500)))
          .run();
      }
    }
  });
  const parents = [...new Set([oldParentId, newParentId])];
  return parents.map((id) => realmOf(ctx, current, getNote(ctx, id)));
}
