import type { AppContext } from "../../context";
import { DomainError, ValidationError } from "../errors";
import type { NoteRow } from "../notes/rows";
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
export async function editableNoteTitled(
  ctx: AppContext,
  current: CurrentUser,
  typedTitle: string,
  field = "parentNote",
): Promise<NoteRow> {
  const title = stripControlCharacters(typedTitle).trim();
  if (!title) throw new ValidationError({ [field]: "must not be blank" });
  const { notebookIds } = await searchScope(ctx, current, { searchKey: title });
  const titled = await ctx.stores.notes.notesTitled([...notebookIds], title);
  const access = await Promise.all(titled.map(({ notebook }) => notebookAccess(ctx, current, notebook)));
  const matches = titled.filter((_, i) => access[i] === "edit");
  if (matches.length === 0) throw new NoNoteTitledError(title);
  if (matches.length > 1) {
    const named = matches.slice(0, MAX_NAMED).map(({ note, notebookTitle }) => {
      return `"${note.title}" (id ${note.id}${notebookTitle ? `, in notebook "${notebookTitle}"` : ""})`;
    });
    const more = matches.length > MAX_NAMED ? ` and ${matches.length - MAX_NAMED} more` : "";
    throw new ValidationError({
      [field]: `${matches.length} notes are titled "${title}": ${named.join(", ")}${more}. Name the parent by its id instead.`,
    });
  }
  return matches[0]!.note;
}
