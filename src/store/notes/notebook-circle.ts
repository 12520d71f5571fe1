/**
 * A notebook moved into a circle (the sharing store offers it; the notes store owns the notebooks
 * table, so the write is here).
 */
import { eq } from "drizzle-orm";
import type { notebooks } from "../../db/schema";
import { all, type Session, type Step } from "../session";

/** Moves the notebook into the circle; answers the notebook as it is now (undefined: no such notebook). */
export function* moveNotebookToCircle(
  s: Session,
  notebookId: number,
  circleId: number,
  now: Date,
): Step<typeof notebooks.$inferSelect | undefined> {
  const { notebooks } = s.t;
  const [moved] = yield* all(s, s.db.update(notebooks).set({ circleId, updatedAt: now }).where(eq(notebooks.id, notebookId)).returning());
  return moved;
}
