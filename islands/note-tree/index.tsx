import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type KeyboardEvent, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { api, call } from "../lib/api";
import { useElementId } from "../lib/island-id";
import { noteChildrenKey } from "../lib/note-children";
import { noteRealmQuery } from "../lib/notes-queries";
import { type DropTarget, TreeContext, TreeNode, type TreeState } from "./TreeNode";
import { type DropPosition, knownChain, type TreePlace, treeChildCount } from "./tree-model";
import { useIsDesktop } from "./use-desktop";

export interface NoteTreeProps {
  rootNoteId: number;
  focusNoteId: number;
  ancestorIds: number[];
  readonly: boolean;
}

const COLLAPSED_KEY = "engram.note-tree.collapsed";

function SidebarIcon() {
  return (
    <svg
      width="20"
      height="20"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <rect x="3" y="4" width="18" height="16" rx="2" />
      <path d="M9 4v16" />
    </svg>
  );
}

/**
 * The note page's sidebar: the note tree from the root note, beside the note from 768px (the
 * user may collapse it), an overlay drawer below that (closed at first). Which of the two shows is
 * decided by CSS, so the server's HTML is right at any width before hydration.
 */
export default function NoteTree(props: NoteTreeProps) {
  const isDesktop = useIsDesktop();
  const [collapsed, setCollapsed] = useState(false);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLElement>(null);
  const panelId = useElementId("panel");

  useEffect(() => {
    try {
      if (sessionStorage.getItem(COLLAPSED_KEY) === "true") setCollapsed(true);
    } catch {
      // storage unavailable: the sidebar starts expanded
    }
  }, []);

  const closeDrawer = useCallback(() => {
    setDrawerOpen(false);
    toggleRef.current?.focus();
  }, []);

  function toggle() {
    if (isDesktop) {
      const next = !collapsed;
      setCollapsed(next);
      try {
        sessionStorage.setItem(COLLAPSED_KEY, String(next));
      } catch {
        // not remembered, never mind
      }
    } else if (drawerOpen) {
      closeDrawer();
    } else {
      setDrawerOpen(true);
    }
  }

  const drawerShown = drawerOpen && !isDesktop;
  useEffect(() => {
    if (!drawerShown) return;
    const panel = panelRef.current;
    (panel?.querySelector<HTMLElement>('[role="treeitem"][tabindex="0"]') ?? panel)?.focus();
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key === "Escape") {
        event.stopPropagation();
        closeDrawer();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [drawerShown, closeDrawer]);

  // Show the focus note: scroll the sidebar (never the page) so it is in view.
  const sidebarShown = isDesktop ? !collapsed : drawerOpen;
  useEffect(() => {
    const panel = panelRef.current;
    const current = panel?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!panel || !current || !sidebarShown) return;
    const panelBox = panel.getBoundingClientRect();
    const box = current.getBoundingClientRect();
    if (box.top < panelBox.top || box.bottom > panelBox.bottom) panel.scrollTop += box.top - panelBox.top - panelBox.height / 3;
  }, [sidebarShown]);

  return (
    <div className={`note-tree-sidebar${collapsed ? " is-collapsed" : ""}${drawerOpen ? " is-open" : ""}`}>
      <button
        ref={toggleRef}
        type="button"
        className="note-tree-toggle"
        aria-label="toggle sidebar"
        aria-expanded={sidebarShown}
        aria-controls={panelId}
        onClick={toggle}
      >
        <SidebarIcon />
      </button>
      <div className="note-tree-backdrop" aria-hidden="true" onClick={closeDrawer} />
      <nav ref={panelRef} id={panelId} className="note-tree-panel" aria-label="Note tree" tabIndex={-1}>
        <Tree {...props} />
      </nav>
    </div>
  );
}

/** The tree itself (role tree): expansion, roving keyboard focus and drag and drop. */
function Tree({ rootNoteId, focusNoteId, ancestorIds, readonly }: NoteTreeProps) {
  const queryClient = useQueryClient();
  const { data: focusRealm } = useQuery(noteRealmQuery(focusNoteId));
  const { data: rootRealm } = useQuery({ ...noteRealmQuery(rootNoteId), enabled: false });
  const chain = useMemo(() => knownChain(focusRealm, ancestorIds, focusNoteId), [focusRealm, ancestorIds, focusNoteId]);
  const [expanded, setExpandedSet] = useState<ReadonlySet<number>>(() => new Set([...ancestorIds, focusNoteId]));
  const [activeId, setActiveId] = useState(focusNoteId);
  const [dragged, setDragged] = useState<TreePlace | null>(null);
  const [dropTarget, setDropTargetState] = useState<DropTarget | null>(null);
  const treeRef = useRef<HTMLUListElement>(null);

  const setExpanded = useCallback((id: number, open: boolean) => {
    // Collapsing hides the focusable item if it is inside: the collapsed note takes its place.
    if (!open) {
      setActiveId((active) => (treeRef.current?.querySelector(`[data-note-id="${id}"] [data-note-id="${active}"]`) ? id : active));
    }
    setExpandedSet((previous) => {
      if (previous.has(id) === open) return previous;
      const next = new Set(previous);
      if (open) next.add(id);
      else next.delete(id);
      return next;
    });
  }, []);

  const setDropTarget = useCallback((target: DropTarget | null) => {
    setDropTargetState((previous) => (previous?.id === target?.id && previous?.position === target?.position ? previous : target));
  }, []);

  const move = useMutation({
    mutationFn: ({ note, target, asFirstChild }: { note: TreePlace; target: TreePlace; asFirstChild: boolean }) =>
      call(
        api.notes
          .move_after({ note: note.id })({ targetNote: target.id })({ asFirstChild: String(asFirstChild) })
          .post(),
      ),
    onSuccess: (realms, { note, target, asFirstChild }) => {
      for (const realm of realms) queryClient.setQueryData(noteRealmQuery(realm.id).queryKey, realm);
      if (asFirstChild) setExpanded(target.id, true);
      const affected = new Set([note.parentId, asFirstChild ? target.id : target.parentId, note.id]);
      if (note.id === focusNoteId || ancestorIds.includes(note.id)) affected.add(focusNoteId);
      // The pages of children after a realm's first page are refetched too: the order changed.
      return Promise.all(
        [...affected]
          .filter((id): id is number => id !== null)
          .flatMap((id) => [
            queryClient.invalidateQueries({ queryKey: noteRealmQuery(id).queryKey, exact: true }),
            queryClient.invalidateQueries({ queryKey: noteChildrenKey(id) }),
          ]),
      );
    },
  });

  const state: TreeState = {
    focusNoteId,
    readonly,
    chain,
    expanded,
    setExpanded,
    activeId,
    setActiveId,
    dragged,
    setDragged,
    dropTarget,
    setDropTarget,
    drop: (note: TreePlace, target: TreePlace, position: DropPosition) => {
      if (!move.isPending) move.mutate({ note, target, asFirstChild: position === "first-child" });
    },
  };

  function onKeyDown(event: KeyboardEvent<HTMLUListElement>) {
    const item = event.target as HTMLElement;
    if (item.getAttribute("role") !== "treeitem") return;
    const items = [...(treeRef.current?.querySelectorAll<HTMLElement>('[role="treeitem"]') ?? [])];
    const index = items.indexOf(item);
    const id = Number(item.dataset.noteId);
    const focus = (target: HTMLElement | undefined | null) => {
      if (!target) return;
      setActiveId(Number(target.dataset.noteId));
      target.focus();
    };
    const isOpen = item.getAttribute("aria-expanded");
    switch (event.key) {
      case "ArrowDown":
        focus(items[index + 1]);
        break;
      case "ArrowUp":
        focus(items[index - 1]);
        break;
      case "Home":
        focus(items[0]);
        break;
      case "End":
        focus(items[items.length - 1]);
        break;
      case "ArrowRight":
        if (isOpen === "false") setExpanded(id, true);
        else if (isOpen === "true") focus(item.querySelector<HTMLElement>(':scope > [role="group"] > [role="treeitem"]'));
        break;
      case "ArrowLeft":
        if (isOpen === "true") setExpanded(id, false);
        else focus(item.parentElement?.closest<HTMLElement>('[role="treeitem"]'));
        break;
      case "Enter":
        item.querySelector<HTMLAnchorElement>(":scope > .note-tree-row > a")?.click();
        break;
      default:
        return;
    }
    event.preventDefault();
  }

  const rootEntry = {
    id: rootNoteId,
    title: rootRealm?.note.noteTopology.titleOrPredicate ?? chain.title(rootNoteId) ?? "",
    count: rootRealm && treeChildCount(rootRealm.note),
  };

  return (
    <TreeContext.Provider value={state}>
      <ul
        ref={treeRef}
        // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the ARIA tree view pattern on the list it is; keys are handled here.
        role="tree"
        aria-label="Note tree"
        className="note-tree"
        onKeyDown={onKeyDown}
        onDragLeave={(event) => {
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDropTarget(null);
        }}
      >
        <TreeNode entry={rootEntry} place={{ id: rootNoteId, parentId: null, path: [] }} />
      </ul>
    </TreeContext.Provider>
  );
}
