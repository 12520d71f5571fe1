import type { NoteRow } from "../notes/rows";
import type { Neighbourhood } from "./neighbourhood";

const ids = (notes: (NoteRow | undefined)[]) => notes.flatMap((note) => (note ? [note.id] : []));
const defined = (values: (number | null | undefined)[]) => values.filter((value): value is number => value != null);

/**
 * Loads what the graph's layers (relationships.ts) may reach from the focus note, a level at a
 * time: four store calls whatever the number of notes. Lists are loaded whole for every note of
 * a level (the layers stop early once the budget is spent, so some go unread); the reader's
 * filter applies where a list is read, as when it was loaded note by note.
 */
export async function loadGraphNeighbourhood(hood: Neighbourhood, focus: NoteRow): Promise<void> {
  // The focus's ancestors, children, siblings (its parent's children), object and inbound references.
  await hood.load({
    notes: defined([focus.id, focus.targetNoteId]),
    ancestorsOf: [focus.id],
    childrenOf: defined([focus.id, focus.parentId]),
    inboundReferencesTo: [focus.id],
  });
  const parent = hood.parentOf(focus);
  const object = hood.targetOf(focus);
  const linkChildren = hood.children(focus).filter((child) => child.targetNoteId !== null);
  const references = hood.inboundReferences(focus);
  // The parent's siblings and their children; the object's ancestors; the objects of reified
  // children and their inbound references; the inbound references' ancestors (their subjects)
  // and the subjects' children.
  await hood.load({
    grandchildrenOf: defined([parent?.parentId]),
    ancestorsOf: [...ids([object]), ...ids(references)],
    notes: defined(linkChildren.map((child) => child.targetNoteId)),
    inboundReferencesTo: defined(linkChildren.map((child) => child.targetNoteId)),
    childrenOf: defined(references.map((reference) => reference.parentId)),
  });
  // The object's parent's siblings and their children.
  const objectParent = hood.parentOf(object);
  await hood.load({ grandchildrenOf: defined([objectParent?.parentId]) });
  // The parents and link targets of every row the layers may show.
  await hood.load({ notes: hood.missingEnds() });
}
