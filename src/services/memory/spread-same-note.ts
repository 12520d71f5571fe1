/**
 * The recall list with no two items of the same note next to each other whenever that can be
 * done (a note's simple review right before its spelling question gives the answer away). The
 * order moves as little as it can: each place takes the earliest remaining item that differs
 * from the one before and leaves the rest arrangeable. Pure, so the server (ordered lists) and
 * the browser (after its shuffle) both use it.
 */
export function spreadSameNote<T extends { noteId: number }>(items: readonly T[]): T[] {
  const counts = new Map<number, number>();
  for (const { noteId } of items) counts.set(noteId, (counts.get(noteId) ?? 0) + 1);
  const rest = [...items];
  const spread: T[] = [];
  let last: number | undefined;
  while (rest.length > 0) {
    const index = pickIndex(rest, counts, last);
    const [item] = rest.splice(index, 1);
    counts.set(item!.noteId, counts.get(item!.noteId)! - 1);
    last = item!.noteId;
    spread.push(item!);
  }
  return spread;
}

/**
 * Items of r notes can follow one another without neighbours of the same note iff no note has
 * more than ceil(r/2) of them; and the first can differ from the item before (of note `last`)
 * iff that note has at most floor(r/2).
 */
function arrangeable(counts: Map<number, number>, size: number, last: number): boolean {
  if ((counts.get(last) ?? 0) > Math.floor(size / 2)) return false;
  for (const count of counts.values()) if (count > Math.ceil(size / 2)) return false;
  return true;
}

function pickIndex<T extends { noteId: number }>(rest: T[], counts: Map<number, number>, last: number | undefined): number {
  let fallback = -1;
  for (let i = 0; i < rest.length; i++) {
    const note = rest[i]!.noteId;
    if (note === last) continue;
    counts.set(note, counts.get(note)! - 1);
    const ok = arrangeable(counts, rest.length - 1, note);
    counts.set(note, counts.get(note)! + 1);
    if (ok) return i;
    // Already too many of one note: use up the most frequent other note first, to part the rest.
    if (fallback < 0 || counts.get(note)! > counts.get(rest[fallback]!.noteId)!) fallback = i;
  }
  return Math.max(fallback, 0);
}
