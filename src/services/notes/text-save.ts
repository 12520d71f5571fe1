import { and, eq } from "drizzle-orm";
import { mergeTexts } from "../../../islands/lib/text-merge";
import type { AppContext } from "../../context";
import { noteTextRevisions } from "../../db/schema";
import { DomainError } from "../errors";
import type { NoteRow } from "./rows";

export type TextField = "title" | "details";

/** 409: the text changed since the save's base, in the same place as the save's own change. */
export class EditConflictError extends DomainError {
  constructor() {
    super("Someone else changed this text meanwhile, in the same place", 409, "EDIT_CONFLICT");
  }
}

const currentOf = (note: NoteRow, field: TextField) =>
  field === "title" ? { text: note.title, revision: note.titleRevision } : { text: note.details, revision: note.detailsRevision };

/** The text of a field at a revision, while it is kept (the last 50 are; see migrations). */
function textAt(ctx: AppContext, noteId: number, field: TextField, revision: number): string | undefined {
  return ctx.db
    .select({ text: noteTextRevisions.text })
    .from(noteTextRevisions)
    .where(and(eq(noteTextRevisions.noteId, noteId), eq(noteTextRevisions.field, field), eq(noteTextRevisions.revision, revision)))
    .get()?.text;
}

/**
 * The text a save writes. A save without a base revision (an older client, a script) writes what
 * it sent, as before. A save based on the current revision does too. A save based on an earlier
 * revision is merged with what changed since (lib/text-merge.ts): both kept when they touch
 * different places; an EditConflictError when they touch the same one, or when its base is no
 * longer kept, so that the person chooses and nothing is overwritten unseen.
 */
export function textToWrite(ctx: AppContext, note: NoteRow, field: TextField, sent: string, baseRevision: number | undefined): string {
  const current = currentOf(note, field);
  if (baseRevision === undefined || baseRevision === current.revision || sent === current.text) return sent;
  const base = baseRevision < current.revision ? textAt(ctx, note.id, field, baseRevision) : undefined;
  const merged = base === undefined ? undefined : mergeTexts(base, sent, current.text);
  if (merged === undefined) throw new EditConflictError();
  return merged;
}
