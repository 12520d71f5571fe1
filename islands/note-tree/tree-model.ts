import { noteTitleText } from "../lib/note-title";
import type { ChildNoteJson, NoteJson, NoteRealmJson } from "../lib/notes-queries";

/** One child as its parent's realm lists it: enough to draw a collapsed node. */
export interface TreeEntry {
  id: number;
  title: string;
  /** Undeleted children; undefined while unknown (shown as "..."). */
  count?: number;
}

/** Where a node sits in the rendered tree. */
export interface TreePlace {
  id: number;
  /** The tree parent; null for the root (a notebook's head note). */
  parentId: number | null;
  /** The ids of the tree ancestors, root first. */
  path: number[];
}

export type DropPosition = "after" | "first-child";

/** The right half of a note makes the dragged note its first child; the left half puts it after the note. */
export function dropPositionAt(clientX: number, rect: { left: number; width: number }): DropPosition {
  return clientX - rect.left >= rect.width / 2 ? "first-child" : "after";
}

/**
 * Whether the dragged note may be dropped there: never on itself or its own descendants, never
 * after a note with a different parent (which also rules out "after the root"), and the root
 * itself is never dragged.
 */
export function canDrop(dragged: TreePlace, target: TreePlace, position: DropPosition): boolean {
  if (dragged.parentId === null) return false;
  if (dragged.id === target.id || target.path.includes(dragged.id)) return false;
  if (position === "after" && target.parentId !== dragged.parentId) return false;
  return true;
}

/**
 * How many children a note shows in the tree: its children but the links among them. A link note
 * is a relation between two notes, not a part of its subject: the tree leaves links out (the note
 * page shows them under the subject and under "Referenced by" on the object).
 */
export function treeChildCount(note: Pick<NoteJson, "childrenCount" | "linkCount">): number | undefined {
  return note.childrenCount === undefined ? undefined : note.childrenCount - (note.linkCount ?? 0);
}

/**
 * Children as a realm (or a page after it) lists them, in order, with their counts, links left
 * out (treeChildCount) but for `keepId`, the note whose page this is, which the tree always shows.
 */
export function childEntriesOf(children: ChildNoteJson[], keepId?: number): TreeEntry[] {
  return children
    .filter((child) => !child.noteTopology.linkType || child.id === keepId)
    .map((child) => ({
      id: child.id,
      title: noteTitleText(child.noteTopology),
      count: treeChildCount(child),
    }));
}

/**
 * What the focus note's realm (the one realm the server prefetches) tells about the chain from
 * the root down to it: the titles of the focus note and its ancestors. For an ancestor whose own
 * realm is not loaded yet, its only known child is the next note on the chain, so the first render
 * (on the server and at hydration) already shows the path to the focus note.
 */
export function knownChain(focusRealm: NoteRealmJson | undefined, ancestorIds: number[], focusNoteId: number) {
  const titles = new Map<number, string>();
  let topology = focusRealm?.note.noteTopology;
  while (topology) {
    titles.set(topology.id, noteTitleText(topology));
    topology = topology.parentOrSubjectNoteTopology;
  }
  const chain = [...ancestorIds, focusNoteId];
  return {
    title: (id: number) => titles.get(id),
    /** The known children of a note whose realm is not loaded: the next note on the chain, if it is an ancestor. */
    fallbackChildren(id: number): TreeEntry[] | undefined {
      const index = chain.indexOf(id);
      if (index < 0 || index === chain.length - 1) return undefined;
      const next = chain[index + 1]!;
      return [
        {
          id: next,
          title: titles.get(next) ?? "",
          count: next === focusNoteId && focusRealm ? treeChildCount(focusRealm.note) : undefined,
        },
      ];
    },
  };
}

export type KnownChain = ReturnType<typeof knownChain>;
