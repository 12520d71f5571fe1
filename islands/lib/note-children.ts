import { infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import type { ChildrenPageJson } from "../../src/services/notes/presenters";
import { api, call } from "./api";
import type { ChildNoteJson, NoteRealmJson } from "./notes-queries";

export type { ChildrenPageJson } from "../../src/services/notes/presenters";

/** How many more children each "load more" asks for (the realm itself lists the first 40). */
export const MORE_CHILDREN_PAGE_SIZE = 50;

/**
 * The children of a note after its realm's first page, page by page (GET /api/notes/{note}/children).
 * Keyed by where the realm's page ends and how many children there are, so a realm that changed
 * (a child added, deleted or moved) starts the following pages afresh.
 */
export const noteChildrenQuery = (noteId: number, firstAfter: number | undefined, childrenCount: number | undefined) =>
  infiniteQueryOptions({
    queryKey: ["note-children", noteId, firstAfter ?? 0, childrenCount ?? 0],
    queryFn: ({ pageParam }) =>
      call(api.notes({ note: noteId }).children.get({ query: { after: pageParam, limit: MORE_CHILDREN_PAGE_SIZE } }), { silent: true }),
    initialPageParam: firstAfter ?? 0,
    getNextPageParam: (last: ChildrenPageJson) => last.moreChildrenAfter,
  });

/** The query key prefix of every page list of a note's children (to invalidate after a move). */
export const noteChildrenKey = (noteId: number) => ["note-children", noteId];

export interface NoteChildren {
  /** The children loaded so far, in sibling order: the realm's first page, then the pages loaded since. */
  children: ChildNoteJson[];
  /** How many children the note has in all. */
  total: number;
  /** Whether more children follow those loaded. */
  hasMore: boolean;
  loading: boolean;
  failed: boolean;
  /** Loads the next page (nothing while one is loading or none is left). */
  loadMore(): void;
}

/**
 * A realm's children with the pages after its first one, loaded only when asked for (scrolling
 * or a "load more" button): the server renders the first page; nothing is fetched until then.
 */
export function useNoteChildren(realm: NoteRealmJson | undefined): NoteChildren {
  const [wanted, setWanted] = useState(false);
  const firstAfter = realm?.moreChildrenAfter;
  const query = useInfiniteQuery({
    ...noteChildrenQuery(realm?.id ?? 0, firstAfter, realm?.note.childrenCount),
    enabled: wanted && firstAfter !== undefined,
  });
  const first = realm?.children ?? [];
  const seen = new Set(first.map((child) => child.id));
  const children = [...first];
  for (const page of query.data?.pages ?? []) {
    for (const child of page.children) {
      if (seen.has(child.id)) continue;
      seen.add(child.id);
      children.push(child);
    }
  }
  const hasMore = firstAfter !== undefined && (query.data ? query.hasNextPage : true);
  const { isFetching, isError, hasNextPage, fetchNextPage, refetch, data } = query;
  const loadMore = useCallback(() => {
    if (isFetching || firstAfter === undefined) return;
    if (!wanted) setWanted(true);
    else if (!data) void refetch();
    else if (hasNextPage) void fetchNextPage();
  }, [isFetching, firstAfter, wanted, data, hasNextPage, fetchNextPage, refetch]);
  return {
    children,
    total: Math.max(realm?.note.childrenCount ?? 0, children.length),
    hasMore,
    loading: isFetching,
    failed: isError,
    loadMore,
  };
}

/**
 * An element that calls `onVisible` when it scrolls near the viewport (IntersectionObserver),
 * again after each change of `version` while it stays there. Without IntersectionObserver it does
 * nothing: a visible button does the same.
 */
export function useSentinel<E extends Element>(onVisible: () => void, active: boolean, version: number) {
  const ref = useRef<E>(null);
  const callback = useRef(onVisible);
  callback.current = onVisible;
  // biome-ignore lint/correctness/useExhaustiveDependencies: version is the trigger: observing afresh reports a sentinel still in view.
  useEffect(() => {
    const element = ref.current;
    if (!element || !active || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) callback.current();
      },
      { rootMargin: "400px 0px" },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [active, version]);
  return ref;
}
