/**
 * A notebook's attachments (the files its notes embed, kept from an Obsidian import): found the
 * way Obsidian finds an embed, from the note that embeds it, and served to the notebook's
 * readers only.
 */
import { and, eq, isNull, notLike } from "drizzle-orm";
import type { AppContext } from "../../context";
import { notebookAttachments, notes } from "../../db/schema";
import { NotFoundError } from "../errors";
import { ancestorsOf, getNote, getNotebook } from "../notes/rows";
import { authorizeRead } from "../policies";
import type { CurrentUser } from "../users";
import { STAGED_PATH_KEYS } from "./attachment-keys";
import { safeName } from "./names";
import { VaultPaths } from "./vault-paths";

export { attachmentPathKey } from "./attachment-keys";

/** Files an import staged and has not published yet are not the notebook's. */
const published = notLike(notebookAttachments.pathKey, STAGED_PATH_KEYS);

export interface StoredAttachment {
  id: number;
  path: string;
  contentType: string;
  bytes: Uint8Array<ArrayBuffer>;
}

/** Every attachment of a notebook: id, path and type (no bytes). */
export function attachmentsOf(ctx: AppContext, notebookId: number) {
  return ctx.db
    .select({ id: notebookAttachments.id, path: notebookAttachments.path, contentType: notebookAttachments.contentType })
    .from(notebookAttachments)
    .where(and(eq(notebookAttachments.notebookId, notebookId), published))
    .all();
}

/** A note's folder in its notebook's vault, as the export lays it out: its ancestors' names, and its own when it has child notes. */
function folderOf(ctx: AppContext, note: typeof notes.$inferSelect): string[] {
  const folder = ancestorsOf(ctx, note)
    .slice(1)
    .map((ancestor) => safeName(ancestor.title));
  if (note.parentId === null) return [];
  const child = ctx.db
    .select({ id: notes.id })
    .from(notes)
    .where(and(eq(notes.parentId, note.id), isNull(notes.targetNoteId), isNull(notes.deletedAt)))
    .limit(1)
    .get();
  return child ? [...folder, safeName(note.title)] : folder;
}

/** The attachment an embed in a note's details names (`![[Diagram.png]]`, `![](../Attachments/x.png)`), for a reader of the note. */
export function attachmentEmbeddedIn(ctx: AppContext, current: CurrentUser | undefined, noteId: number, target: string): StoredAttachment {
  const note = getNote(ctx, noteId);
  authorizeRead(ctx, current, getNotebook(ctx, note.notebookId));
  const listed = attachmentsOf(ctx, note.notebookId);
  const path = new VaultPaths(listed.map((attachment) => attachment.path)).resolve(target, folderOf(ctx, note));
  const found = path === undefined ? undefined : listed.find((attachment) => attachment.path === path);
  if (!found) throw new NotFoundError("Attachment");
  return attachmentById(ctx, current, found.id);
}

/** An attachment by its id, for a reader of its notebook. */
export function attachmentById(ctx: AppContext, current: CurrentUser | undefined, id: number): StoredAttachment {
  const row = ctx.db
    .select()
    .from(notebookAttachments)
    .where(and(eq(notebookAttachments.id, id), published))
    .get();
  if (!row) throw new NotFoundError("Attachment");
  authorizeRead(ctx, current, getNotebook(ctx, row.notebookId));
  return { id: row.id, path: row.path, contentType: row.contentType, bytes: new Uint8Array(row.bytes) };
}
