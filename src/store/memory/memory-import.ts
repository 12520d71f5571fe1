/**
 * The memory store's bodies for the imports (src/operations): the trackers an import wrote and did
 * not publish are removed by these when it fails (their reviews go with them, by cascade).
 */
import { inArray } from "drizzle-orm";
import { run, type Session, type Step } from "../session";

export function* removeTrackers(s: Session, trackerIds: number[]): Step<void> {
  if (trackerIds.length === 0) return;
  const { memoryTrackers } = s.t;
  yield* run(s, s.db.delete(memoryTrackers).where(inArray(memoryTrackers.id, trackerIds)));
}
