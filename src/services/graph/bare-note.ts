import type { NoteRow } from "../notes/rows";

/** The relation-to-focus-note values (spec section 3, enum RelationshipToFocusNote). */
export const RELATIONS_TO_FOCUS_NOTE = [
  "Self",
  "Parent",
  "Object",
  "Child",
  "PriorSibling",
  "YoungerSibling",
  "InboundReference",
  "SubjectOfInboundReference",
  "AncestorInContextualPath",
  "AncestorInObjectContextualPath",
  "ObjectOfReifiedChild",
  "SiblingOfParent",
  "SiblingOfParentOfObject",
  "ChildOfSiblingOfParent",
  "ChildOfSiblingOfParentOfObject",
  "InboundReferenceContextualPath",
  "SiblingOfSubjectOfInboundReference",
  "InboundReferenceToObjectOfReifiedChild",
] as const;
export type RelationToFocusNote = (typeof RELATIONS_TO_FOCUS_NOTE)[number];

/** BareNote of the reference's API contract; absent fields are omitted, never null. */
export interface BareNote {
  uri: string;
  subjectUriAndTitle?: string;
  predicate?: string;
  title?: string;
  objectUriAndTitle?: string;
  parentUriAndTitle?: string;
  relationToFocusNote?: RelationToFocusNote;
  details?: string;
}

/** FocusNote: the BareNote of the focus with full details, plus the lists of what was included. */
export interface FocusNote extends BareNote {
  contextualPath: string[];
  children: string[];
  priorSiblings: string[];
  youngerSiblings: string[];
  inboundReferences: string[];
}

export interface GraphRAGResult {
  focusNote: FocusNote;
  relatedNotes: BareNote[];
}

/** Finds a note by id (a Map of rows works, so does the graph's lazy loader). */
export interface NoteLookup {
  get(id: number): NoteRow | undefined;
  /** Whether the reader may see the note at all (the policy's answer); a link's ends the reader may not read are left out. */
  visible(note: NoteRow): boolean;
}

/** Details of related notes are cut to this many UTF-8 bytes, then "..." is appended. */
export const RELATED_NOTE_DETAILS_MAX_BYTES = 500;
/** The token estimate's ratio: ⌈UTF-8 bytes of the compact JSON / 3.75⌉. */
export const BYTES_PER_TOKEN = 3.75;

export const uri = (note: NoteRow) => `/n${note.id}`;
/** A UriAndTitle, serialised as the markdown link `[title](/n<id>)`. */
export const uriAndTitle = (note: NoteRow) => `[${note.title}](${uri(note)})`;

const utf8Bytes = (text: string) => Buffer.byteLength(text, "utf8");

/** The longest prefix (whole code points) within the byte limit, plus "..." when something was cut. */
export function truncateDetails(details: string, maxBytes = RELATED_NOTE_DETAILS_MAX_BYTES): string {
  if (utf8Bytes(details) <= maxBytes) return details;
  let bytes = 0;
  let end = 0;
  for (const char of details) {
    const size = utf8Bytes(char);
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += char.length;
  }
  return `${details.slice(0, end)}...`;
}

/** Estimated tokens of a note in the result: ⌈UTF-8 bytes of its compact JSON / 3.75⌉. */
export function estimateTokens(note: BareNote | FocusNote): number {
  return Math.ceil(utf8Bytes(JSON.stringify(note)) / BYTES_PER_TOKEN);
}

/**
 * A BareNote: keys in the reference's order, absent fields omitted. A link
 * note ("reification") shows its parent as subject, its title as predicate and its target as
 * object; a deleted target, or one in a notebook the viewer may not read, is left out (not even
 * its title shows). `details` defaults to the note's full details.
 */
export function bareNote(note: NoteRow, byId: NoteLookup, relationToFocusNote?: RelationToFocusNote, details = note.details): BareNote {
  const shown = (id: number | null) => {
    const row = id !== null ? byId.get(id) : undefined;
    return row && !row.deletedAt && byId.visible(row) ? row : undefined;
  };
  const parent = shown(note.parentId);
  const isLink = note.targetNoteId !== null;
  const target = isLink ? shown(note.targetNoteId) : undefined;
  return {
    uri: uri(note),
    ...(isLink && parent ? { subjectUriAndTitle: uriAndTitle(parent) } : {}),
    ...(isLink ? { predicate: note.title } : { title: note.title }),
    ...(target ? { objectUriAndTitle: uriAndTitle(target) } : {}),
    ...(!isLink && parent ? { parentUriAndTitle: uriAndTitle(parent) } : {}),
    ...(relationToFocusNote ? { relationToFocusNote } : {}),
    ...(details ? { details } : {}),
  };
}
