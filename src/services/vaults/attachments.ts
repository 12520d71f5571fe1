/**
 * A notebook's attachments (the files its notes embed, kept from an Obsidian import): found the
 * way Obsidian finds an embed, from the note that embeds it, and served to the notebook's
 * readers only.
 */
import type { AppContext } from "../../context";
import { NotFoundError } from "../errors";
import { type NoteRow, requireNotebook, requireNoteWithNotebook } from "../notes/rows";
import { authorizeRead } from "../policies";
import type { CurrentUser } from "../users";
import { safeName } from "./names";
import { VaultPaths } from "./vault-paths";

export { attachmentPathKey } from "./attachment-keys";

export interface StoredAttachment {
  id: number;
  path: string;
  contentType: string;
  bytes: Uint8Array<ArrayBuffer>;
}

/** A note's folder in its notebook's vault, as the export lays it out: its ancestors' names, and its own when it has child notes. */
async function folderOf(ctx: AppContext, note: NoteRow): Promise<string[]> {
  if (note.parentId === null) return [];
  const folder = (await ctx.stores.notes.ancestorsOf(note)).slice(1).map((ancestor) => safeName(ancestor.title));
  return (await ctx.stores.notes.hasChildNote(note.id)) ? [...folder, safeName(note.title)] : folder;
}

/** The attachment an embed in a note's details names (`![[Diagram.png]]`, `![](../Attachments/x.png)`), for a reader of the note. */
export async function attachmentEmbeddedIn(
  ctx: AppContext,
  current: CurrentUser | undefined,
  noteId: number,
  target: string,
): Promise<StoredAttachment> {
  const { note, notebook } = await requireNoteWithNotebook(ctx, noteId);
  await authorizeRead(ctx, current, notebook);
  const listed = await ctx.stores.notes.attachmentsOf(note.notebookId);
  const path = new VaultPaths(listed.map((attachment) => attachment.path)).resolve(target, await folderOf(ctx, note));
  const found = path === undefined ? undefined : listed.find((attachment) => attachment.path === path);
  if (!found) throw new NotFoundError("Attachment");
  return attachmentById(ctx, current, found.id);
}

/** An attachment by its id, for a reader of its notebook. */
export async function attachmentById(ctx: AppContext, current: CurrentUser | undefined, id: number): Promise<StoredAttachment> {
  const row = await ctx.stores.notes.attachmentById(id);
  if (!row) throw new NotFoundError("Attachment");
  await authorizeRead(ctx, current, await requireNotebook(ctx, row.notebookId));
  return { id: row.id, path: row.path, contentType: row.contentType, bytes: new Uint8Array(row.bytes) };
}
