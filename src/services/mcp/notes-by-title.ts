import type { AppContext } from "../../context";
import { DomainError, ValidationError } from "../errors";
import { getNotebook, type NoteRow, notesByIds } from "../notes/rows";
import { notebookAccess } from "../policies";
import { searchScope } from "../search/scope";
import { stripControlCharacters } from "../text-input";
import type { CurrentUser } from "../users";

/** Most notes named in the "several notes have this title" error. */
const MAX_NAMED = 10;

/** 404 with a message that names the title asked for (the caller's own words, never a stranger's note). */
class NoNoteTitledError extends DomainError {
  constructor(title: string) {
    super(`No note titled "${title}" found among the notes you may edit`, 404, "RESOURCE_NOT_FOUND");
  }
}

/**
 * The one undeleted note with this title (case-insensitive, surrounding spaces ignored) among
 * the notes the user may edit: the notebooks come from the search scope, each kept only when
 * the access rules say "edit". No match is 404; several are 400 naming each with its id and
 * notebook, so the caller can choose by id.
 */
export function editableNoteTitled(ctx: AppContext, current: CurrentUser, typedTitle: string, field = "parentNote"): NoteRow {
  const title = stripControlCharacters(typedTitle).trim();
  if (!title) throw new ValidationError({ [field]: "must not be blank" });
  const { notebookIds } = searchScope(ctx, current, { searchKey: title });
  const ids = ctx.sqlite
    .query<{ id: number }, [string, string]>(
      `SELECT id FROM notes WHERE notebook_id IN (SELECT value FROM json_each(?1))
         AND deleted_at IS NULL AND target_note_id IS NULL AND lower(trim(title)) = lower(?2)
       ORDER BY id LIMIT 100`,
    )
    .all(JSON.stringify(notebookIds), title)
    .map((row) => row.id);
  const notebookTitles = new Map<number, string | undefined>();
  const matches = notesByIds(ctx, ids).filter((note) => {
    const notebook = getNotebook(ctx, note.notebookId);
    if (notebookAccess(ctx, current, notebook) !== "edit") return false;
    if (!notebookTitles.has(notebook.id)) {
      notebookTitles.set(notebook.id, notebook.headNoteId ? notesByIds(ctx, [notebook.headNoteId])[0]?.title : undefined);
    }
    return true;
  });
  if (matches.length === 0) throw new NoNoteTitledError(title);
  if (matches.length > 1) {
    const named = matches.slice(0, MAX_NAMED).map((note) => {
      const notebook = notebookTitles.get(note.notebookId);
      return `"${note.title}" (id ${note.id}${notebook ? `, in notebook "${notebook}"` : ""})`;
    });
    const more = matches.length > MAX_NAMED ? ` and ${matches.length - MAX_NAMED} more` : "";
    throw new ValidationError({
      [field]: `${matches.length} notes are titled "${title}": ${named.join(", ")}${more}. Name the parent by its id instead.`,
    });
  }
  return matches[0]!;
}
