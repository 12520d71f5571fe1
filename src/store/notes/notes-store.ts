/**
 * The notes store: notebooks and their notes (with links, accessories, text revisions, images,
 * attachments and AI assistants). The only writer of those tables; its bodies live in the files
 * beside this one, each a concern (rows, writes, notebooks, Wikidata, the realm of a note...).
 */
import { defineStore, read, type StoreOf, write } from "../define";
import type { Session } from "../session";
import { assistantOf, saveAdditionalInstructions, saveAssistantRecord } from "./ai-assistants";
import {
  attachmentById,
  attachmentsByIds,
  attachmentsOf,
  hasChildNote,
  imageContentTypes,
  imagesByIds,
  imageWithNotebooks,
  updateAccessories,
} from "./files";
import { insertNote, type NewNoteColumns, type NoteSlot } from "./insert-note";
import { neighbourhoodRows } from "./neighbourhood";
import {
  ancestorsOf,
  childAndLinkCounts,
  childrenOf,
  descendantIds,
  inboundReferencesOf,
  noteById,
  notebookById,
  notesByIds,
  noteWithNotebook,
  recentNotesOfCreator,
  subtreeRows,
  undeletedDescendantCount,
} from "./note-rows";
import { moveNote, moveUnder, restoreSubtree, saveText, setTitle, softDeleteSubtree } from "./note-writes";
import { createNotebook, liveNotebooks, livePersonalNotebooks, notebookCards, notesOfNotebook, updateNotebookSettings } from "./notebooks";
import { childrenPageRows, realmRows, relatedOf } from "./realm";
import { injectNotes } from "./test-notes";
import { notesTitled } from "./titled";
import { applyEnrichment, noteWithWikidataId, setWikidataId, type WikidataEnrichment } from "./wikidata";

/** Inserts a note (and writes what Wikidata gave it) in one unit; answers it and the notes whose text the enrichment changed. */
function* addNote(s: Session, now: Date, slot: NoteSlot, columns: NewNoteColumns, enrichment?: WikidataEnrichment) {
  const note = yield* insertNote(s, now, slot, columns);
  const changed = enrichment ? yield* applyEnrichment(s, note.id, enrichment, now) : [];
  return { note, changed };
}

/** Notes by id with the rows their topologies need (link subjects and objects). */
function* notesWithRelated(s: Session, ids: number[]) {
  const rows = yield* notesByIds(s, ids);
  return { rows, related: yield* relatedOf(s, rows) };
}

export const notesStore = defineStore({
  noteById: read(noteById),
  notebookById: read(notebookById),
  noteWithNotebook: read(noteWithNotebook),
  notesByIds: read(notesByIds),
  notesWithRelated: read(notesWithRelated),
  relatedOf: read(relatedOf),
  childrenOf: read(childrenOf),
  childAndLinkCounts: read(childAndLinkCounts),
  ancestorsOf: read(ancestorsOf),
  descendantIds: read(descendantIds),
  inboundReferencesOf: read(inboundReferencesOf),
  neighbourhoodRows: read(neighbourhoodRows),
  realmRows: read(realmRows),
  recentNotesOfCreator: read(recentNotesOfCreator),
  subtreeRows: read(subtreeRows),
  undeletedDescendantCount: read(undeletedDescendantCount),
  childrenPageRows: read(childrenPageRows),
  noteWithWikidataId: read(noteWithWikidataId),
  liveNotebooks: read(liveNotebooks),
  livePersonalNotebooks: read(livePersonalNotebooks),
  notebookCards: read(notebookCards),
  notesOfNotebook: read(notesOfNotebook),
  notesTitled: read(notesTitled),
  attachmentsOf: read(attachmentsOf),
  attachmentById: read(attachmentById),
  attachmentsByIds: read(attachmentsByIds),
  hasChildNote: read(hasChildNote),
  imagesByIds: read(imagesByIds),
  imageContentTypes: read(imageContentTypes),
  imageWithNotebooks: read(imageWithNotebooks),
  assistantOf: read(assistantOf),

  addNote: write(addNote),
  applyEnrichment: write(applyEnrichment),
  saveText: write(saveText),
  setTitle: write(setTitle),
  setWikidataId: write(setWikidataId),
  softDeleteSubtree: write(softDeleteSubtree),
  restoreSubtree: write(restoreSubtree),
  moveNote: write(moveNote),
  moveUnder: write(moveUnder),
  createNotebook: write(createNotebook),
  updateNotebookSettings: write(updateNotebookSettings),
  updateAccessories: write(updateAccessories),
  saveAdditionalInstructions: write(saveAdditionalInstructions),
  saveAssistantRecord: write(saveAssistantRecord),
  injectNotes: write(injectNotes),
});
export type NotesStore = StoreOf<typeof notesStore>;

export type { NotebookAssistantRow } from "./ai-assistants";
export type { AccessoryUpdate, AttachmentRow, NoteImageRow } from "./files";
export type { NewNoteColumns, NoteSlot } from "./insert-note";
export type { NeighbourhoodRequest } from "./neighbourhood";
export type { ChildrenCursor, NotebookRow, NoteRow } from "./note-rows";
export type { TextField } from "./note-writes";
export type { NotebookCard, NotebookChanges, NotebookSelection } from "./notebooks";
export type { RealmRows } from "./realm";
export type { TestNoteRow } from "./test-notes";
export type { WikidataEnrichment } from "./wikidata";
