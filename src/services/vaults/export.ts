/**
 * "Export for Obsidian": a notebook as a zip that opens in Obsidian as a vault. The head note is
 * the top folder; a note with children is a folder holding `__index.md` (its own text) and its
 * children; a leaf is `<title>.md`. Links become `type:: [[wikilinks]]`, uploaded images are
 * written beside their note and embedded. Deleted notes are left out.
 */

import { and, eq, inArray, isNull } from "drizzle-orm";
import JSZip from "jszip";
import type { AppContext } from "../../context";
import { noteImages, notes } from "../../db/schema";
import { extensionOf } from "../accessories/image-bytes";
import { NotFoundError } from "../errors";
import { getNotebook, type NoteRow } from "../notes/rows";
import { authorizeRead } from "../policies";
import type { CurrentUser } from "../users";
import { type FrontMatterEntry, splitDetails, yamlString } from "./markdown-file";
import { FolderNames, INDEX_FILE, INDEX_STEM } from "./names";

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

/** How a wikilink names a file: its stem when that is unique in the vault, else its path. */
function linkWriter(placed: Placed[]) {
  const stemCount = new Map<string, number>();
  const stemOf = (p: Placed) => p.file.slice(p.file.lastIndexOf("/") + 1, -3);
  for (const p of placed) stemCount.set(stemOf(p).toLowerCase(), (stemCount.get(stemOf(p).toLowerCase()) ?? 0) + 1);
  const byId = new Map(placed.map((p) => [p.note.id, p]));
  return (targetId: number, title: string) => {
    const target = byId.get(targetId);
    if (!target) return `[[${title}]]`;
    const stem = stemOf(target);
    const name = stem !== INDEX_STEM && stemCount.get(stem.toLowerCase()) === 1 ? stem : target.file.slice(0, -3);
    return name === target.note.title ? `[[${name}]]` : `[[${name}|${target.note.title}]]`;
  };
}

function frontMatterOf(note: NoteRow, extra: FrontMatterEntry[]): string {
  const lines = [`note_id: ${note.id}`, `created_at: ${note.createdAt.toISOString()}`, `updated_at: ${note.updatedAt.toISOString()}`];
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
  const notebook = getNotebook(ctx, notebookId);
  authorizeRead(ctx, current, notebook);
  const rows = ctx.db
    .select()
    .from(notes)
    .where(and(eq(notes.notebookId, notebookId), isNull(notes.deletedAt)))
    .all();
  const head = rows.find((row) => row.id === notebook.headNoteId);
  if (!head) throw new NotFoundError("Notebook");
  const { placed, folderNames, linksOf } = layout(head, rows);
  const wikilink = linkWriter(placed);

  // Titles of link targets in other notebooks (or deleted ones), written as plain [[Title]].
  const known = new Map(rows.map((row) => [row.id, row]));
  const missing = [
    ...new Set(rows.filter((row) => row.targetNoteId !== null && !known.has(row.targetNoteId)).map((row) => row.targetNoteId!)),
  ];
  for (let i = 0; i < missing.length; i += 500) {
    for (const row of ctx.db
      .select()
      .from(notes)
      .where(inArray(notes.id, missing.slice(i, i + 500)))
      .all())
      known.set(row.id, row);
  }

  const zip = new JSZip();
  const imageIds = [...new Set(placed.map((p) => p.note.imageId).filter((id): id is number => id !== null))];
  const images = new Map<number, { contentType: string; bytes: Buffer }>();
  for (let i = 0; i < imageIds.length; i += 100) {
    for (const image of ctx.db
      .select()
      .from(noteImages)
      .where(inArray(noteImages.id, imageIds.slice(i, i + 100)))
      .all()) {
      images.set(image.id, image);
    }
  }

  for (const p of placed) {
    const { entries, rest } = splitDetails(p.note.details);
    // The body follows its heading line directly, as the reference's export writes it.
    const heading = rest.trim() ? `# ${p.note.title}\n${rest.trim()}` : `# ${p.note.title}`;
    const parts = [heading];
    const image = p.note.imageId === null ? undefined : images.get(p.note.imageId);
    if (image) {
      const name =
        folderNames.get(p.folder)?.fileName(p.stem, extensionOf(image.contentType)) ?? `${p.stem}.${extensionOf(image.contentType)}`;
      const path = `${p.folder}/${name}`;
      // Images are compressed already: stored as they are, deflating them again only costs time.
      zip.file(path, image.bytes, { createFolders: false, binary: true, compression: "STORE" });
      parts.push(`![[${path}]]`);
    }
    const links = linksOf(p.note.id)
      .map((link) => {
        const target = known.get(link.targetNoteId!);
        return target && !target.deletedAt ? `${link.title}:: ${wikilink(target.id, target.title)}` : undefined;
      })
      .filter((line): line is string => line !== undefined);
    if (links.length) parts.push(links.join("\n"));
    zip.file(p.file, `${frontMatterOf(p.note, entries)}${parts.join("\n\n")}\n`, { createFolders: false });
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
