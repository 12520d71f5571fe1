/**
 * "Export for Obsidian": a notebook as a zip that opens in Obsidian as a vault (its top folder is
 * the vault). The head note is the top folder; a note with children is a folder holding
 * `__index.md` (its own text) and its children; a leaf is `<title>.md`. Links become
 * `type:: [[wikilinks]]`; the files the notes embed (kept from an import) are written where they
 * were, and every link and embed in the text is written so that it finds its note or file in
 * this vault (vault-paths.ts); uploaded images are written beside their note, embedded last and
 * named in front matter (note_image). Deleted notes are left out.
 */

import JSZip from "jszip";
import type { AppContext } from "../../context";
import { extensionOf } from "../accessories/image-bytes";
import { NotFoundError } from "../errors";
import { type NoteRow, requireNotebook } from "../notes/rows";
import { authorizeRead, readableNoteIds } from "../policies";
import type { CurrentUser } from "../users";
import { type LinkInText, markdownLinkText, rewriteLinks, wikiLinkText } from "./link-rewrite";
import { type FrontMatterEntry, splitDetails, yamlString } from "./markdown-file";
import { FolderNames, INDEX_FILE } from "./names";
import { pathParts, VaultPaths } from "./vault-paths";

interface Placed {
  note: NoteRow;
  /** Vault path of the note's Markdown file. */
  file: string;
  /** The folder its attachments go to, and the names taken there. */
  folder: string;
  stem: string;
}

export interface VaultExport {
  fileName: string;
  bytes: Uint8Array<ArrayBuffer>;
}

const byOrder = (a: NoteRow, b: NoteRow) => a.siblingOrder - b.siblingOrder || a.id - b.id;

/** Where every undeleted note of the tree goes, walking from the head note (children before links). */
function layout(head: NoteRow, rows: NoteRow[]) {
  const children = new Map<number, NoteRow[]>();
  for (const row of rows) {
    if (row.parentId === null) continue;
    const list = children.get(row.parentId) ?? [];
    list.push(row);
    children.set(row.parentId, list);
  }
  for (const list of children.values()) list.sort(byOrder);
  const notesOf = (id: number) => (children.get(id) ?? []).filter((child) => child.targetNoteId === null);
  const linksOf = (id: number) => (children.get(id) ?? []).filter((child) => child.targetNoteId !== null);

  const placed: Placed[] = [];
  const folderNames = new Map<string, FolderNames>();
  const headStem = new FolderNames().noteStem(head.title);
  const visit = (note: NoteRow, dir: string, stem: string) => {
    const kids = notesOf(note.id);
    if (kids.length === 0 && note.id !== head.id) {
      placed.push({ note, file: `${dir}/${stem}.md`, folder: dir, stem });
      return;
    }
    const folder = dir ? `${dir}/${stem}` : stem;
    const names = new FolderNames();
    names.reserve(INDEX_FILE);
    folderNames.set(folder, names);
    placed.push({ note, file: `${folder}/${INDEX_FILE}`, folder, stem });
    const stems = kids.map((kid) => names.noteStem(kid.title));
    for (const [i, kid] of kids.entries()) visit(kid, folder, stems[i]!);
  };
  visit(head, "", headStem);
  return { placed, folderNames, linksOf };
}

function frontMatterOf(note: NoteRow, extra: FrontMatterEntry[], imageLink?: string): string {
  const lines = [`note_id: ${note.id}`, `created_at: ${note.createdAt.toISOString()}`, `updated_at: ${note.updatedAt.toISOString()}`];
  if (imageLink) lines.push(`note_image: ${JSON.stringify(`[[${imageLink}]]`)}`);
  if (note.wikidataId) lines.push(`wikidata_id: ${yamlString(note.wikidataId)}`);
  if (note.url) lines.push(`url: ${yamlString(note.url)}`);
  if (note.imageUrl && note.imageId === null) lines.push(`image_url: ${yamlString(note.imageUrl)}`);
  for (const entry of extra) lines.push(...entry.lines);
  return `---\n${lines.join("\n")}\n---\n`;
}

/** The zip's file name (spec 9: the notebook title plus -obsidian.zip). */
export function exportFileName(headTitle: string): string {
  return `${headTitle}-obsidian.zip`;
}

/** Builds the vault of a notebook the user may read. */
export async function exportNotebookVault(ctx: AppContext, current: CurrentUser | undefined, notebookId: number): Promise<VaultExport> {
  const notebook = await requireNotebook(ctx, notebookId);
  await authorizeRead(ctx, current, notebook);
  const rows = await ctx.stores.notes.notesOfNotebook(notebookId);
  const head = rows.find((row) => row.id === notebook.headNoteId);
  if (!head) throw new NotFoundError("Notebook");
  const { placed, folderNames, linksOf } = layout(head, rows);
  const top = placed[0]!.folder;
  const inVault = (zipPath: string) => zipPath.slice(top.length + 1);

  // Titles of link targets in other notebooks (or deleted ones), written as plain [[Title]]: only
  // those the reader may read now (a link to any other is left out of the vault).
  const known = new Map(rows.map((row) => [row.id, row]));
  const missing = [
    ...(await readableNoteIds(
      ctx,
      current,
      rows.filter((row) => row.targetNoteId !== null && !known.has(row.targetNoteId)).map((row) => row.targetNoteId!),
    )),
  ];
  for (const row of await ctx.stores.notes.notesByIds(missing)) known.set(row.id, row);

  const imageIds = [...new Set(placed.map((p) => p.note.imageId).filter((id): id is number => id !== null))];
  const images = new Map<number, { contentType: string; bytes: Buffer }>();
  for (const image of await ctx.stores.notes.imagesByIds(imageIds)) images.set(image.id, image);

  // Every file of the vault, so that links name them as Obsidian would find them: the notes, the
  // notebook's attachments where they were, and uploaded images beside their notes.
  const attachments = await ctx.stores.notes.attachmentsOf(notebookId);
  for (const attachment of attachments) {
    const parts = pathParts(attachment.path);
    folderNames.get([top, ...parts.slice(0, -1)].join("/"))?.reserve(parts.at(-1)!);
  }
  const imageFile = new Map<Placed, string>();
  for (const p of placed) {
    const image = p.note.imageId === null ? undefined : images.get(p.note.imageId);
    if (!image) continue;
    const ext = extensionOf(image.contentType);
    imageFile.set(p, `${p.folder}/${folderNames.get(p.folder)?.fileName(p.stem, ext) ?? `${p.stem}.${ext}`}`);
  }
  const noteByFile = new Map(placed.map((p) => [inVault(p.file), p]));
  // A folder note (Folder/__index.md) is also what [[Folder]] names, as the import reads it.
  const folderAliases = placed
    .filter((p) => p.file.endsWith(`/${INDEX_FILE}`) && p !== placed[0])
    .map((p) => [`${inVault(p.folder)}.md`, inVault(p.file)] as [string, string]);
  const vault = new VaultPaths(
    [...noteByFile.keys(), ...attachments.map((attachment) => attachment.path), ...[...imageFile.values()].map(inVault)],
    folderAliases,
  );
  const attachmentByPath = new Map(attachments.map((attachment) => [attachment.path, attachment]));
  const embedded = new Set<number>();

  /** A link of the text, written to find its note or file in this vault (kept as written when it finds none). */
  const relink = (from: string[]) => (link: LinkInText) => {
    const path = vault.resolve(link.target, from);
    if (path === undefined) return undefined;
    const attachment = attachmentByPath.get(path);
    if (attachment) embedded.add(attachment.id);
    const target = vault.linkTarget(path);
    if (link.kind === "wikilink") return wikiLinkText(link, target);
    return markdownLinkText(link, noteByFile.has(path) ? `${target}.md` : target);
  };
  /** A typed link's [[wikilink]] to a note of this vault. */
  const wikilinkTo = (targetId: number, title: string) => {
    const target = placed.find((p) => p.note.id === targetId);
    if (!target) return `[[${title}]]`;
    const name = vault.linkTarget(inVault(target.file));
    return name === title ? `[[${name}]]` : `[[${name}|${title}]]`;
  };

  const zip = new JSZip();
  for (const p of placed) {
    const { entries, rest } = splitDetails(p.note.details);
    const body = rewriteLinks(rest.trim(), relink(pathParts(inVault(p.file)).slice(0, -1)));
    // The body follows its heading line directly, as the reference's export writes it.
    const parts = [body ? `# ${p.note.title}\n${body}` : `# ${p.note.title}`];
    const image = p.note.imageId === null ? undefined : images.get(p.note.imageId);
    const imagePath = imageFile.get(p);
    let imageLink: string | undefined;
    if (image && imagePath) {
      // Images are compressed already: stored as they are, deflating them again only costs time.
      zip.file(imagePath, image.bytes, { createFolders: false, binary: true, compression: "STORE" });
      imageLink = vault.linkTarget(inVault(imagePath));
      parts.push(`![[${imageLink}]]`);
    }
    const links = linksOf(p.note.id)
      .map((link) => {
        const target = known.get(link.targetNoteId!);
        return target && !target.deletedAt ? `${link.title}:: ${wikilinkTo(target.id, target.title)}` : undefined;
      })
      .filter((line): line is string => line !== undefined);
    if (links.length) parts.push(links.join("\n"));
    zip.file(p.file, `${frontMatterOf(p.note, entries, imageLink)}${parts.join("\n\n")}\n`, { createFolders: false });
  }
  // The files the notes embed or link to, where they were in the vault; files nothing names stay out.
  for (const attachment of await ctx.stores.notes.attachmentsByIds([...embedded])) {
    const compressed = /^(image\/(png|jpeg|gif|webp)|audio\/(mpeg|mp4|ogg|webm|flac)|video\/)/.test(attachment.contentType);
    zip.file(`${top}/${attachment.path}`, attachment.bytes, {
      createFolders: false,
      binary: true,
      ...(compressed ? { compression: "STORE" } : {}),
    });
  }
  const bytes = await zip.generateAsync({ type: "uint8array", compression: "DEFLATE", compressionOptions: { level: 6 } });
  return { fileName: exportFileName(head.title), bytes: bytes as Uint8Array<ArrayBuffer> };
}

/** Content-Disposition for a download: an ASCII fallback and the exact name (RFC 6266, RFC 5987). */
export function attachmentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\%]/g, "_");
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
