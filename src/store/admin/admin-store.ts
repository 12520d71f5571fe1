/** What the admin area reads across aggregates: a notebook's whole dump. Writes nothing. */
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { notes } from "../../db/schema";
import { defineStore, read, type StoreOf } from "../define";
import { all, type Session, type Step } from "../session";

type NoteRow = typeof notes.$inferSelect;

/** Every undeleted note of a notebook, by parent then sibling order (the head note first). */
export function* notebookNotes(s: Session, notebookId: number): Step<NoteRow[]> {
  const { notes } = s.t;
  return yield* all(
    s,
    s.db
      .select()
      .from(notes)
      .where(and(eq(notes.notebookId, notebookId), isNull(notes.deletedAt)))
      .orderBy(sql`${notes.parentId} IS NOT NULL`, asc(notes.parentId), asc(notes.siblingOrder), asc(notes.id)),
  );
}

export const adminStore = defineStore({
  notebookNotes: read(notebookNotes),
});
export type AdminStore = StoreOf<typeof adminStore>;
