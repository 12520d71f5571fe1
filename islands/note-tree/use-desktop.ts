import { useSyncExternalStore } from "react";

/** The width from which the sidebar sits beside the note instead of being an overlay drawer (same as note-tree.css). */
export const DESKTOP_QUERY = "(min-width: 768px)";

function subscribe(onChange: () => void) {
  const media = window.matchMedia(DESKTOP_QUERY);
  media.addEventListener("change", onChange);
  return () => media.removeEventListener("change", onChange);
}

/**
 * Whether the window is at least 768px wide. The server (and hydration) assume a desktop; the
 * layout itself never depends on this (CSS media queries do it), only behaviour and ARIA state.
 */
export function useIsDesktop(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(DESKTOP_QUERY).matches,
    () => true,
  );
}
