/**
 * Everything a note's realm shows, read in one snapshot: the note page (every open of a note)
 * and every answer after a change present from these rows, without another query.
 */

import type { Session, Step } from "../session";
import {
  ancestorsOf,
  type ChildrenCursor,
  childAndLinkCounts,
  childrenWindow,
  inboundReferencesOf,
  type NotebookRow,
  type NoteRow,
  notesByIds,
  noteWithNotebook,
} from "./note-rows";
import { type NotebookCard, notebookCards } from "./notebooks";

export interface RealmRows {
  note: NoteRow;
  notebook: NotebookRow;
  /** Root first, not including the note. */
  ancestors: NoteRow[];
  /** The first page of children (or every child), and whether more follow. */
  children: NoteRow[];
  more: boolean;
  /** The children's own child and link counts. */
  counts: Map<number, { children: number; links: number }>;
  /** The note's child and link counts. */
  own: { children: number; links: number };
  /** Inbound link notes of notebooks the reader may read. */
  inbound: NoteRow[];
  /** The subjects and objects of the link notes among these rows (to be shown where the reader may read them). */
  related: NoteRow[];
  card: NotebookCard;
}

/** Subjects and objects of link notes among `rows` that are not among them. */
export function* relatedOf(s: Session, rows: NoteRow[]): Step<NoteRow[]> {
  const known = new Set(rows.map((row) => row.id));
  const missing = new Set<number>();
  for (const row of rows) {
    if (row.targetNoteId === null) continue;
    if (!known.has(row.targetNoteId)) missing.add(row.targetNoteId);
    if (row.parentId !== null && !known.has(row.parentId)) missing.add(row.parentId);
  }
  return yield* notesByIds(s, [...missing]);
}

/**
 * The realm of a note (undefined when the note or its notebook is gone). `readable` says which
 * notebooks the reader may read: inbound links from any other are not even read.
 */
export function* realmRows(
  s: Session,
  noteId: number,
  childrenLimit: number | "all",
  readable: (notebookId: number) => boolean,
): Step<RealmRows | undefined> {
  const found = yield* noteWithNotebook(s, noteId);
  if (!found) return undefined;
  const { note, notebook } = found;
  const ancestors = yield* ancestorsOf(s, note);
  const { rows: children, more } = yield* childrenWindow(s, note.id, childrenLimit);
  const inbound = yield* inboundReferencesOf(s, note.id, readable);
  const related = yield* relatedOf(s, [note, ...ancestors, ...children, ...inbound]);
  const counts = yield* childAndLinkCounts(
    s,
    children.map((c) => c.id),
  );
  const own = more
    ? (yield* childAndLinkCounts(s, [note.id])).get(note.id)!
    : { children: children.length, links: children.filter((c) => c.targetNoteId !== null).length };
  const head = ancestors[0] ?? note;
  const [card] = yield* notebookCards(s, [notebook], head.parentId === null ? [head] : []);
  return { note, notebook, ancestors, children, more, counts, own, inbound, related, card: card! };
}

/** A page of a note's children after `after`, with their counts and the rows their topologies need. */
export function* childrenPageRows(
  s: Session,
  noteId: number,
  limit: number,
  after?: ChildrenCursor,
): Step<{ rows: NoteRow[]; more: boolean; counts: Map<number, { children: number; links: number }>; related: NoteRow[] }> {
  const { rows, more } = yield* childrenWindow(s, noteId, limit, after);
  const related = yield* relatedOf(s, rows);
  const counts = yield* childAndLinkCounts(
    s,
    rows.map((c) => c.id),
  );
  return { rows, more, counts, related };
}
