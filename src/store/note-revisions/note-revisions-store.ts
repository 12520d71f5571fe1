/**
 * Notes' text revisions (raised by triggers on every change of a title or details, by any process):
 * a process with open note pages compares them with what it last saw, so a save made through
 * another process reaches those pages too.
 */
import { defineStore, read, type StoreOf } from "../define";
import { all, inIds, type Session, type Step } from "../session";

export interface NoteRevisions {
  id: number;
  titleRevision: number;
  detailsRevision: number;
}

/** The current revisions of the notes (a missing note is left out). */
export function* revisionsOf(s: Session, noteIds: number[]): Step<NoteRevisions[]> {
  if (noteIds.length === 0) return [];
  const { notes } = s.t;
  return yield* all(
    s,
    s.db
      .select({ id: notes.id, titleRevision: notes.titleRevision, detailsRevision: notes.detailsRevision })
      .from(notes)
      .where(inIds(s, notes.id, noteIds)),
  );
}

export const noteRevisionsStore = defineStore({ revisionsOf: read(revisionsOf) });
export type NoteRevisionsStore = StoreOf<typeof noteRevisionsStore>;
