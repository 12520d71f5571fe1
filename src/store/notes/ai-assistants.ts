/**
 * A notebook's AI assistant settings: the additional instructions its editors give the AI, and
 * Engram's own assistant record (rebuilt on "recreate").
 */
import { eq } from "drizzle-orm";
import type { notebookAiAssistants } from "../../db/schema";
import { one, run, type Session, type Step } from "../session";

export type NotebookAssistantRow = typeof notebookAiAssistants.$inferSelect;

/** The notebook's assistant settings, or undefined when never saved. */
export function* assistantOf(s: Session, notebookId: number): Step<NotebookAssistantRow | undefined> {
  const a = s.t.notebookAiAssistants;
  return yield* one(s, s.db.select().from(a).where(eq(a.notebookId, notebookId)));
}

/** Sets the notebook's additional instructions (creating its settings); answers the settings. */
export function* saveAdditionalInstructions(s: Session, notebookId: number, value: string, now: Date): Step<NotebookAssistantRow> {
  const a = s.t.notebookAiAssistants;
  yield* run(
    s,
    s.db
      .insert(a)
      .values({ notebookId, additionalInstructions: value, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({ target: a.notebookId, set: { additionalInstructions: value, updatedAt: now } }),
  );
  return (yield* assistantOf(s, notebookId))!;
}

/** Stores the notebook's rebuilt assistant record (creating its settings); answers the settings. */
export function* saveAssistantRecord(
  s: Session,
  notebookId: number,
  record: string,
  creatorId: number,
  now: Date,
): Step<NotebookAssistantRow> {
  const a = s.t.notebookAiAssistants;
  const assistant = { assistantRecord: record, assistantCreatorId: creatorId, assistantCreatedAt: now };
  yield* run(
    s,
    s.db
      .insert(a)
      .values({ notebookId, ...assistant, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({ target: a.notebookId, set: assistant }),
  );
  return (yield* assistantOf(s, notebookId))!;
}
