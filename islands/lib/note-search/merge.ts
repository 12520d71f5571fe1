import type { NoteSearchResultJson } from "../../../src/services/search";

export type { NoteSearchResultJson } from "../../../src/services/search";

/**
 * Merges the literal and semantic results (spec 5): one entry per note id, keeping the smaller
 * distance, sorted by distance ascending (ties keep the order of first appearance).
 */
export function mergeSearchResults(...lists: NoteSearchResultJson[][]): NoteSearchResultJson[] {
  const byId = new Map<number, NoteSearchResultJson>();
  for (const list of lists) {
    for (const result of list) {
      const known = byId.get(result.noteTopology.id);
      if (!known || result.distance < known.distance)
        byId.set(result.noteTopology.id, known ? { ...known, distance: result.distance } : result);
    }
  }
  return [...byId.values()].sort((a, b) => a.distance - b.distance);
}

/** A distance as shown: 3 decimals. */
export function formatDistance(distance: number): string {
  return distance.toFixed(3);
}
