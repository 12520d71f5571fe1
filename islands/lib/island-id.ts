import { createContext, useContext } from "react";

/**
 * The id of the island being rendered, the same on the server and in the browser. React's own
 * useId depends on the position in the tree, which differs between the server's whole-page tree
 * and the browser's one-root-per-island, so islands build element ids from this instead.
 */
export const IslandIdContext = createContext("island");

/** A DOM id unique on the page and stable across hydration, e.g. for label htmlFor. */
export function useElementId(name: string): string {
  return `${useContext(IslandIdContext)}-${name}`;
}

/**
 * The prefix of React's useId inside one island. The server renders each island as its own root
 * with it and the browser hydrates with it, so useId (which the UI primitives use for aria
 * attributes) gives the same ids on both sides.
 */
export const islandIdentifierPrefix = (islandId: string) => `${islandId}-`;
