import { useQuery } from "@tanstack/react-query";
import { type CSSProperties, createContext, type DragEvent, type ReactNode, useContext } from "react";
import { useNoteChildren } from "../lib/note-children";
import { noteTitleText } from "../lib/note-title";
import { type NoteRealmJson, notePath, noteRealmQuery } from "../lib/notes-queries";
import {
  canDrop,
  childEntriesOf,
  type DropPosition,
  dropPositionAt,
  type KnownChain,
  type TreeEntry,
  type TreePlace,
  treeChildCount,
} from "./tree-model";

export interface DropTarget {
  id: number;
  position: DropPosition;
}

/** What every node of one tree shares: expansion, keyboard focus, and drag and drop. */
export interface TreeState {
  focusNoteId: number;
  readonly: boolean;
  chain: KnownChain;
  expanded: ReadonlySet<number>;
  setExpanded(id: number, expanded: boolean): void;
  activeId: number;
  setActiveId(id: number): void;
  dragged: TreePlace | null;
  setDragged(place: TreePlace | null): void;
  dropTarget: DropTarget | null;
  setDropTarget(target: DropTarget | null): void;
  drop(dragged: TreePlace, target: TreePlace, position: DropPosition): void;
}

export const TreeContext = createContext<TreeState | null>(null);

function useTree(): TreeState {
  const tree = useContext(TreeContext);
  if (!tree) throw new Error("TreeNode outside a tree");
  return tree;
}

function Chevron() {
  return (
    <svg
      width="14"
      height="14"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2.5"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d="m9 6 6 6-6 6" />
    </svg>
  );
}

/**
 * One note of the tree: its title (a link to its page), its child count ("..." while unknown or
 * while its own realm loads) and, when expanded, its children, loaded lazily from its realm.
 */
export function TreeNode({ entry, place }: { entry: TreeEntry; place: TreePlace }) {
  const tree = useTree();
  const { id } = entry;
  const isExpanded = tree.expanded.has(id);
  // Collapsed nodes read a realm that is already cached but never fetch one; the server never fetches.
  const { data: realm } = useQuery({ ...noteRealmQuery(id), enabled: isExpanded });

  const title = realm ? noteTitleText(realm.note.noteTopology) : (entry.title ?? tree.chain.title(id) ?? "");
  const knownCount = (realm && treeChildCount(realm.note)) ?? entry.count;
  const shownCount = isExpanded && !realm ? undefined : knownCount;
  const fallback = realm ? undefined : tree.chain.fallbackChildren(id);
  const hasChildren = knownCount !== undefined ? knownCount > 0 : realm ? (realm.children ?? []).length > 0 : true;
  const isFocus = id === tree.focusNoteId;
  const depth = place.path.length;
  const draggable = !tree.readonly && place.parentId !== null;
  const dropHere = tree.dropTarget?.id === id ? tree.dropTarget.position : undefined;

  function dragOver(event: DragEvent<HTMLDivElement>) {
    const dragged = tree.dragged;
    if (!dragged) return;
    const position = dropPositionAt(event.clientX, event.currentTarget.getBoundingClientRect());
    if (canDrop(dragged, place, position)) {
      event.preventDefault();
      event.dataTransfer.dropEffect = "move";
      tree.setDropTarget({ id, position });
    } else {
      event.dataTransfer.dropEffect = "none";
      tree.setDropTarget(null);
    }
  }

  function drop(event: DragEvent<HTMLDivElement>) {
    const dragged = tree.dragged;
    tree.setDropTarget(null);
    tree.setDragged(null);
    if (!dragged) return;
    const position = dropPositionAt(event.clientX, event.currentTarget.getBoundingClientRect());
    if (!canDrop(dragged, place, position)) return;
    event.preventDefault();
    tree.drop(dragged, place, position);
  }

  return (
    <li
      role="treeitem"
      aria-label={title}
      aria-level={depth + 1}
      aria-expanded={hasChildren ? isExpanded : undefined}
      tabIndex={tree.activeId === id ? 0 : -1}
      data-note-id={id}
      className={`note-tree-item${dropHere === "after" ? " drop-after" : ""}`}
      style={{ "--depth": depth } as CSSProperties}
      onFocus={(event) => event.target === event.currentTarget && tree.setActiveId(id)}
    >
      {/* biome-ignore lint/a11y/noStaticElementInteractions: dragging a row is a mouse shortcut; the tree's keys and menus do the same. */}
      <div
        className={`note-tree-row${isFocus ? " is-focus" : ""}${dropHere === "first-child" ? " drop-first-child" : ""}`}
        data-drop={dropHere}
        draggable={draggable || undefined}
        onDragStart={
          draggable
            ? (event) => {
                event.dataTransfer.effectAllowed = "move";
                event.dataTransfer.setData("text/plain", title);
                tree.setDragged(place);
              }
            : undefined
        }
        onDragEnd={() => {
          tree.setDragged(null);
          tree.setDropTarget(null);
        }}
        onDragOver={dragOver}
        onDragLeave={(event) => {
          if (event.currentTarget.contains(event.relatedTarget as Node | null)) return;
          if (tree.dropTarget?.id === id) tree.setDropTarget(null);
        }}
        onDrop={drop}
      >
        {hasChildren ? (
          <button
            type="button"
            className="note-tree-twisty"
            tabIndex={-1}
            aria-label={`${isExpanded ? "collapse" : "expand"} ${title}`}
            onClick={() => tree.setExpanded(id, !isExpanded)}
          >
            <Chevron />
          </button>
        ) : (
          <span className="note-tree-twisty" aria-hidden="true" />
        )}
        <a
          className="note-tree-title"
          href={notePath(id)}
          tabIndex={-1}
          draggable={false}
          dir="auto"
          title={title}
          aria-current={isFocus ? "page" : undefined}
        >
          {title}
        </a>
        <span className="note-tree-count" title={shownCount === undefined ? "loading" : `${shownCount} children`}>
          {shownCount ?? "..."}
        </span>
      </div>
      {isExpanded &&
        hasChildren &&
        (realm ? (
          <LoadedChildren realm={realm} place={place} />
        ) : (
          fallback && fallback.length > 0 && <Children entries={fallback} place={place} />
        ))}
    </li>
  );
}

function Children({ entries, place, more }: { entries: TreeEntry[]; place: TreePlace; more?: ReactNode }) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: role group is how the ARIA tree view nests a node's children, not a fieldset.
    <ul role="group">
      {entries.map((child) => (
        <TreeNode key={child.id} entry={child} place={{ id: child.id, parentId: place.id, path: [...place.path, place.id] }} />
      ))}
      {more}
    </ul>
  );
}

/**
 * An expanded note's children from its realm: the first page, then more at the reader's request
 * ("Show more"), never a thousand at once.
 */
function LoadedChildren({ realm, place }: { realm: NoteRealmJson; place: TreePlace }) {
  const tree = useTree();
  const { children, total, hasMore, loading, failed, loadMore } = useNoteChildren(realm);
  if (children.length === 0) return null;
  const entries = childEntriesOf(children, tree.focusNoteId);
  // The path to the focus note stays in the tree even when it is beyond the pages loaded so far.
  const onPath = tree.chain.fallbackChildren(place.id)?.[0];
  if (onPath && hasMore && !entries.some((entry) => entry.id === onPath.id)) entries.push(onPath);
  const more = hasMore && (
    <li role="none" className="note-tree-more" style={{ "--depth": place.path.length + 1 } as CSSProperties}>
      <button type="button" className="note-tree-more-button" onClick={loadMore} aria-disabled={loading} aria-busy={loading}>
        {loading ? "Loading..." : failed ? "Could not load: try again" : `Show more (${total - children.length} more)`}
      </button>
    </li>
  );
  return <Children entries={entries} place={place} more={more} />;
}
