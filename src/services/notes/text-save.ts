import { mergeTexts } from "../../../islands/lib/text-merge";
import type { TextField } from "../../store/notes/notes-store";
import { DomainError } from "../errors";
import type { NoteRow } from "./rows";

export type { TextField };

/** 409: the text changed since the save's base, in the same place as the save's own change. */
export class EditConflictError extends DomainError {
  constructor() {
    super("Someone else changed this text meanwhile, in the same place", 409, "EDIT_CONFLICT");
  }
}

const currentOf = (note: NoteRow, field: TextField) =>
  field === "title" ? { text: note.title, revision: note.titleRevision } : { text: note.details, revision: note.detailsRevision };

/**
 * The text a save writes, given the note as it is now and `baseText`, the text at the save's base
 * revision when that is an earlier one still kept (the last 50 are; see migrations). A save
 * without a base revision (an older client, a script) writes what it sent, as before. A save
 * based on the current revision does too. A save based on an earlier revision is merged with what
 * changed since (lib/text-merge.ts): both kept when they touch different places; an
 * EditConflictError when they touch the same one, or when its base is no longer kept, so that the
 * person chooses and nothing is overwritten unseen.
 */
export function textToWrite(
  note: NoteRow,
  field: TextField,
  sent: string,
  baseRevision: number | undefined,
  baseText: string | undefined,
): string {
  const current = currentOf(note, field);
  if (baseRevision === undefined || baseRevision === current.revision || sent === current.text) return sent;
  const merged = baseText === undefined ? undefined : mergeTexts(baseText, sent, current.text);
  if (merged === undefined) throw new EditConflictError();
  return merged;
}
