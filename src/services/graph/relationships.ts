import type { NoteRow } from "../notes/rows";
import { type FocusNote, type RelationToFocusNote, uriAndTitle } from "./bare-note";
import type { Neighbourhood } from "./neighbourhood";
import type { PriorityLayer, RelationshipHandler } from "./priority-layer";

/** A handler over a fixed list; `onYield` runs when a candidate is handed out (fit or not). */
function listHandler(
  relation: RelationToFocusNote,
  notes: NoteRow[],
  hooks: { onYield?: (note: NoteRow) => void; afterAdded?: (focus: FocusNote, note: NoteRow) => void } = {},
): RelationshipHandler {
  let index = 0;
  return {
    relation,
    next() {
      if (index >= notes.length) return undefined;
      const note = notes[index++]!;
      hooks.onYield?.(note);
      return note;
    },
    afterAdded: hooks.afterAdded,
  };
}

const optional = (note: NoteRow | undefined) => (note ? [note] : []);

/** The anchor's peers in a spiral: nearest left, nearest right, then the next pair outwards. */
export function spiralAround(anchor: NoteRow | undefined, peers: NoteRow[]): NoteRow[] {
  const at = anchor ? peers.findIndex((peer) => peer.id === anchor.id) : -1;
  if (at < 0) return [];
  const order: NoteRow[] = [];
  for (let step = 1; at - step >= 0 || at + step < peers.length; step++) {
    if (at - step >= 0) order.push(peers[at - step]!);
    if (at + step < peers.length) order.push(peers[at + step]!);
  }
  return order;
}

/** Layer 1: the parent, the object (target), the ancestors on the contextual path (root first). */
export function layerOneHandlers(hood: Neighbourhood, focus: NoteRow): RelationshipHandler[] {
  return [
    listHandler("Parent", optional(hood.parentOf(focus))),
    listHandler("Object", optional(hood.targetOf(focus))),
    listHandler("AncestorInContextualPath", hood.ancestors(focus)),
  ];
}

/**
 * Layer 2: children, prior siblings (nearest first), younger siblings, inbound references
 * (shuffled), the object's ancestors, the parent's siblings and the object's parent's siblings
 * (spirals). What they hand out fills layers 3 and 4.
 */
export function layerTwoHandlers(hood: Neighbourhood, focus: NoteRow, layer3: PriorityLayer, layer4: PriorityLayer): RelationshipHandler[] {
  const siblings = hood.siblingsAndSelf(focus);
  const at = siblings.findIndex((sibling) => sibling.id === focus.id);
  const prior = at < 0 ? [] : siblings.slice(0, at).reverse();
  const younger = at < 0 ? [] : siblings.slice(at + 1);
  const parent = hood.parentOf(focus);
  const object = hood.targetOf(focus);
  const objectParent = hood.parentOf(object);
  return [
    listHandler("Child", hood.children(focus), {
      onYield: (child) => {
        if (child.targetNoteId !== null) layer3.addHandler(objectOfReifiedChild(hood, child, layer4));
      },
      afterAdded: (f, note) => f.children.push(uriAndTitle(note)),
    }),
    listHandler("PriorSibling", prior, {
      // Listed in creation order, though visited nearest first.
      afterAdded: (f, note) => f.priorSiblings.unshift(uriAndTitle(note)),
    }),
    listHandler("YoungerSibling", younger, { afterAdded: (f, note) => f.youngerSiblings.push(uriAndTitle(note)) }),
    listHandler("InboundReference", hood.shuffle(hood.inboundReferences(focus)), {
      onYield: (reference) => {
        layer3.addHandler(subjectOfInboundReference(hood, reference, layer4));
        layer4.addHandler(listHandler("InboundReferenceContextualPath", hood.shuffle(hood.ancestors(reference))));
      },
      afterAdded: (f, note) => f.inboundReferences.push(uriAndTitle(note)),
    }),
    listHandler("AncestorInObjectContextualPath", hood.ancestors(object)),
    listHandler("SiblingOfParent", spiralAround(parent, hood.siblingsAndSelf(parent)), {
      onYield: (sibling) => layer4.addHandler(listHandler("ChildOfSiblingOfParent", hood.shuffle(hood.children(sibling)))),
    }),
    listHandler("SiblingOfParentOfObject", spiralAround(objectParent, hood.siblingsAndSelf(objectParent)), {
      onYield: (sibling) => layer4.addHandler(listHandler("ChildOfSiblingOfParentOfObject", hood.shuffle(hood.children(sibling)))),
    }),
  ];
}

/** Layer 3: the object of a reified child; its inbound references go to layer 4. */
function objectOfReifiedChild(hood: Neighbourhood, child: NoteRow, layer4: PriorityLayer): RelationshipHandler {
  return listHandler("ObjectOfReifiedChild", optional(hood.targetOf(child)), {
    onYield: (object) => layer4.addHandler(listHandler("InboundReferenceToObjectOfReifiedChild", hood.inboundReferences(object))),
  });
}

/** Layer 3: the subject (parent) of an inbound reference; its children go to layer 4. */
function subjectOfInboundReference(hood: Neighbourhood, reference: NoteRow, layer4: PriorityLayer): RelationshipHandler {
  return listHandler("SubjectOfInboundReference", optional(hood.parentOf(reference)), {
    onYield: (subject) => layer4.addHandler(listHandler("SiblingOfSubjectOfInboundReference", hood.shuffle(hood.children(subject)))),
  });
}
