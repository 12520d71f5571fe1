/**
 * A notebook's certification settings (certifiable, the number of questions its assessment asks),
 * bodies of the notes store (its writes of notebooks stay in this folder), composed by the
 * assessments store when an admin approves a certification or the test endpoints set a notebook up.
 */
import { eq } from "drizzle-orm";
import { run, type Session, type Step } from "../session";

export function* setCertification(
  s: Session,
  notebookId: number,
  settings: { certifiable?: boolean; numberOfQuestionsInAssessment?: number },
): Step<void> {
  if (Object.keys(settings).length === 0) return;
  yield* run(s, s.db.update(s.t.notebooks).set(settings).where(eq(s.t.notebooks.id, notebookId)));
}
