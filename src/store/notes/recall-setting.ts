/**
 * A note's recall setting (level, remember spelling, skip memory tracking), a body of the notes
 * store (its writes of notes stay in this folder), composed by the memory store's
 * `updateRecallSetting`. Links follow the level: every link under the note and every link to it
 * gets at least the new level, in the same unit.
 */
import { and, eq, isNotNull, lt, or } from "drizzle-orm";
import { all, inIds, run, type Session, type Step } from "../session";

export interface RecallSetting {
  level: number;
  rememberSpelling: boolean;
  skipMemoryTracking: boolean;
}

export function* setRecallSetting(s: Session, noteId: number, setting: RecallSetting): Step<void> {
  const { notes } = s.t;
  yield* run(s, s.db.update(notes).set(setting).where(eq(notes.id, noteId)));
  const links = yield* all(
    s,
    s.db
      .select({ id: notes.id })
      .from(notes)
      .where(
        and(isNotNull(notes.targetNoteId), or(eq(notes.parentId, noteId), eq(notes.targetNoteId, noteId)), lt(notes.level, setting.level)),
      ),
  );
  if (links.length > 0)
    yield* run(
      s,
      s.db
        .update(notes)
        .set({ level: setting.level })
        .where(
          inIds(
            s,
            notes.id,
            links.map((link) => link.id),
          ),
        ),
    );
}
