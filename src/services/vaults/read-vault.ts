/**
 * Reads an Obsidian vault (a zip) into a tree of notes to import, without touching the database:
 * folders and Markdown files by the export's layout, front matter, typed and plain wikilinks,
 * and embedded images. What cannot be imported is listed with the reason.
 */
import { detectImageType, type ImageContentType, MAX_IMAGE_BYTES } from "../accessories/image-bytes";
import { isLinkType } from "../links/link-types";
import { MAX_DETAILS_LENGTH, MAX_TITLE_LENGTH } from "../notes/validation";
import { stripControlCharacters } from "../text-input";
import {
  detailsWithFrontMatter,
  ENGRAM_KEYS,
  type FrontMatterEntry,
  markdownImages,
  markdownNoteLinks,
  scalarValue,
  splitMarkdownFile,
  wikiLinks,
} from "./markdown-file";
import { INDEX_FILE, INDEX_STEM, isHiddenPath, stemFitsTitle } from "./names";
import { openZip, readEntry, VAULT_LIMITS, VaultImportError, type ZipEntry } from "./read-zip";

export interface SkippedFile {
  path: string;
  reason: string;
}

export interface VaultImage {
  path: string;
  bytes: Uint8Array;
  contentType: ImageContentType;
}

export interface VaultNote {
  title: string;
  /** The Markdown file giving the note its text, if any (zip path, for reports). */
  source?: string;
  /** undefined: no text in the vault, the note's details stay as they are. */
  details?: string;
  wikidataId?: string;
  url?: string;
  imageUrl?: string;
  image?: VaultImage;
  typedLinks: { type: string; target: string }[];
  relatedLinks: string[];
  children: VaultNote[];
}

export interface Vault {
  root: VaultNote;
  skipped: SkippedFile[];
  /** The vault note a [[wikilink]] target names, if any. */
  resolve(target: string): VaultNote | undefined;
  noteCount: number;
}

interface MdFile {
  entry: ZipEntry;
  rel: string[];
  stem: string;
  order: number;
  text?: string;
  used?: boolean;
}

interface Folder {
  name: string;
  rel: string[];
  order: number;
  folders: Map<string, Folder>;
  files: MdFile[];
  hasMarkdown: boolean;
}

interface ImageRef {
  text: string;
  entry: ZipEntry;
}

interface Pending {
  note: VaultNote;
  body: string;
  imageRefs: ImageRef[];
  /** Front matter entries Engram does not read: they stay at the top of the details. */
  kept: FrontMatterEntry[];
}

const lower = (text: string) => text.toLowerCase();
const isMarkdown = (name: string) => /\.md$/i.test(name);
const stemOf = (name: string) => name.replace(/\.md$/i, "");
// As the accessory form takes it: an http(s) address (validation.ts checks the length too).
const VALID_URL = /^https?:\/\/./i;

function newFolder(name: string, rel: string[], order: number): Folder {
  return { name, rel, order, folders: new Map(), files: [], hasMarkdown: false };
}

/** A title from a file or folder name or front matter: no control characters, at most 150 characters, never blank. */
function cleanTitle(title: string): string {
  const clean = stripControlCharacters(title).trim().slice(0, MAX_TITLE_LENGTH);
  return clean === "" ? "Untitled" : clean;
}

/** Reads a vault to import under a head note titled `headTitle` (its text may start with "# <headTitle>"). */
export async function readVault(bytes: Uint8Array, headTitle: string): Promise<Vault> {
  const { entries, budget } = await openZip(bytes);
  const skipped: SkippedFile[] = [];
  const hiddenReported = new Set<string>();
  const visible: ZipEntry[] = [];
  for (const entry of entries) {
    if (isHiddenPath(entry.parts)) {
      const at = entry.parts.findIndex(
        (part) => part.startsWith(".") || part === "__MACOSX" || part === "Thumbs.db" || part === "desktop.ini",
      );
      const shown = entry.parts.slice(0, at + 1).join("/") + (at < entry.parts.length - 1 || entry.dir ? "/" : "");
      if (!hiddenReported.has(shown)) {
        hiddenReported.add(shown);
        skipped.push({ path: shown, reason: "hidden or system file" });
      }
      continue;
    }
    if (!entry.dir) visible.push(entry);
  }

  // One top folder holding everything is the head note, whatever its name.
  const first = visible[0]?.parts[0];
  const topName = first !== undefined && visible.every((e) => e.parts.length >= 2 && e.parts[0] === first) ? first : undefined;
  const relOf = (entry: ZipEntry) => (topName === undefined ? entry.parts : entry.parts.slice(1));

  const root = newFolder(topName ?? "", [], 0);
  const attachments = new Map<string, ZipEntry>();
  const attachmentsByName = new Map<string, ZipEntry>();
  const markdown: MdFile[] = [];
  visible.forEach((entry, order) => {
    const rel = relOf(entry);
    const name = rel.at(-1)!;
    if (!isMarkdown(name)) {
      attachments.set(lower(rel.join("/")), entry);
      if (!attachmentsByName.has(lower(name))) attachmentsByName.set(lower(name), entry);
      return;
    }
    let folder = root;
    folder.hasMarkdown = true;
    for (let i = 0; i < rel.length - 1; i++) {
      const key = lower(rel[i]!);
      let next = folder.folders.get(key);
      if (!next) {
        next = newFolder(rel[i]!, rel.slice(0, i + 1), order);
        folder.folders.set(key, next);
      }
      next.hasMarkdown = true;
      folder = next;
    }
    const file: MdFile = { entry, rel, stem: stemOf(name), order };
    folder.files.push(file);
    markdown.push(file);
  });
  if (markdown.length === 0) throw new VaultImportError("the zip holds no Markdown (.md) notes");
  if (markdown.length > VAULT_LIMITS.notes) throw new VaultImportError(`the vault has more than ${VAULT_LIMITS.notes} notes`);

  const decoder = new TextDecoder("utf-8");
  for (const file of markdown) {
    const data = await readEntry(file.entry, VAULT_LIMITS.markdownBytes, budget);
    if (data === undefined) {
      skipped.push({ path: file.entry.path, reason: `larger than ${VAULT_LIMITS.markdownBytes / 1024 / 1024} MiB` });
      file.used = true;
    } else file.text = decoder.decode(data);
  }

  /** The attachment an embed names, looked up as Obsidian does: beside the note, from the vault root, then by name. */
  const findAttachment = (target: string, dir: string[]): ZipEntry | undefined => {
    let t = target.normalize("NFC").replace(/^\.\//, "").replace(/^\//, "");
    const candidates = [[...dir, t].join("/"), t];
    if (topName !== undefined && lower(t).startsWith(lower(`${topName}/`))) candidates.push(t.slice(topName.length + 1));
    for (const candidate of candidates) {
      const parts: string[] = [];
      for (const part of candidate.split("/")) {
        if (part === "..") parts.pop();
        else if (part !== "." && part !== "") parts.push(part);
      }
      const found = attachments.get(lower(parts.join("/")));
      if (found) return found;
    }
    t = t.split("/").at(-1)!;
    return attachmentsByName.get(lower(t));
  };

  const embedded = new Set<ZipEntry>();
  const pending: Pending[] = [];
  const byPath = new Map<string, VaultNote>();
  const byStem = new Map<string, VaultNote>();
  const byTitle = new Map<string, VaultNote>();
  const remember = (map: Map<string, VaultNote>, key: string, note: VaultNote) => {
    if (!map.has(lower(key))) map.set(lower(key), note);
  };

  /** A note from a Markdown file (or none: a folder without text) named `name` in folder `dir`. */
  const noteOf = (name: string, file: MdFile | undefined, dir: string[], isHead: boolean): VaultNote => {
    const note: VaultNote = { title: cleanTitle(name), typedLinks: [], relatedLinks: [], children: [] };
    if (!file || file.text === undefined) return note;
    file.used = true;
    note.source = file.entry.path;
    const { frontMatter, body: rawBody } = splitMarkdownFile(file.text);
    const value = (key: string) => scalarValue(frontMatter.find((entry) => entry.key === key));
    const fmTitle = value("title");
    let body = rawBody.replace(/\r\n?/g, "\n");
    // "# Title" on the first line; a closing "#" run needs a space before it, so "# C#" stays "C#".
    const heading = /^\s*# (.+?)(?:[ \t]+#+)?[ \t]*(?:\n|$)/.exec(body);
    if (!isHead) {
      if (fmTitle?.trim()) note.title = cleanTitle(fmTitle);
      else if (heading && stemFitsTitle(name, heading[1]!)) note.title = cleanTitle(heading[1]!);
    }
    if (
      heading &&
      (heading[1] === note.title || stemFitsTitle(name, heading[1]!) || (isHead && (heading[1] === name || heading[1] === headTitle)))
    ) {
      body = body.slice(heading[0].length);
    }
    const wikidataId = value("wikidata_id")?.trim();
    if (wikidataId && /^Q\d+$/.test(wikidataId)) note.wikidataId = wikidataId;
    const url = value("url")?.trim();
    if (url && url.length <= 2048 && VALID_URL.test(url)) note.url = url;
    const imageUrl = value("image_url")?.trim();
    if (imageUrl && imageUrl.length <= 2048 && VALID_URL.test(imageUrl)) note.imageUrl = imageUrl;

    // "type:: [[Target]]" lines are typed links (the export writes them); the line leaves the details.
    body = body
      .split("\n")
      .filter((line) => {
        const match = /^\s*([a-z][a-z ]*?)::\s*(.*)$/.exec(line);
        if (!match || !isLinkType(match[1]!) || match[1] === "no link") return true;
        const links = wikiLinks(match[2]!).filter((link) => !link.embed);
        if (links.length === 0) return true;
        for (const link of links) note.typedLinks.push({ type: match[1]!, target: link.target });
        return false;
      })
      .join("\n");

    const imageRefs: ImageRef[] = [];
    for (const link of wikiLinks(body)) {
      if (!link.embed) {
        note.relatedLinks.push(link.target);
        continue;
      }
      const entry = findAttachment(link.target, dir);
      if (entry) imageRefs.push({ text: link.text, entry });
    }
    for (const target of markdownNoteLinks(body)) note.relatedLinks.push(relativeTo(dir, target));
    for (const image of markdownImages(body)) {
      const entry = findAttachment(image.target, dir);
      if (entry) imageRefs.push({ text: image.text, entry });
    }
    for (const ref of imageRefs) embedded.add(ref.entry);
    const kept = frontMatter.filter((entry) => !(ENGRAM_KEYS as readonly string[]).includes(entry.key));
    // Details are set once images are read (the note image's embed leaves them).
    pending.push({ note, body, kept, imageRefs: imageRefs.sort((a, b) => body.indexOf(a.text) - body.indexOf(b.text)) });
    return note;
  };

  let noteCount = 0;
  const build = (folder: Folder, isHead: boolean, besideFile?: MdFile): VaultNote => {
    const index =
      folder.files.find((file) => lower(`${file.stem}.md`) === lower(INDEX_FILE) && !file.used) ??
      folder.files.find((file) => lower(file.stem) === lower(folder.name) && !file.used) ??
      besideFile;
    const note = noteOf(folder.name || "", index, folder.rel, isHead);
    noteCount++;
    remember(byPath, folder.rel.join("/"), note);
    if (index) remember(byPath, index.rel.join("/").replace(/\.md$/i, ""), note);
    if (folder.name) remember(byStem, folder.name, note);
    remember(byTitle, note.title, note);

    const items: { order: number; make: () => VaultNote | undefined }[] = [];
    const subfolders = [...folder.folders.values()].filter((sub) => sub.hasMarkdown);
    for (const sub of subfolders) {
      // A "folder note" <folder>.md beside the folder gives it its text, unless the folder has its own.
      const hasOwn = sub.files.some((file) => lower(file.stem) === lower(INDEX_STEM) || lower(file.stem) === lower(sub.name));
      const beside = hasOwn ? undefined : folder.files.find((file) => lower(file.stem) === lower(sub.name) && !file.used && file !== index);
      if (beside) beside.used = true;
      items.push({ order: sub.order, make: () => build(sub, false, beside && { ...beside, used: false }) });
    }
    for (const file of folder.files) {
      items.push({
        order: file.order,
        make: () => {
          if (file.used) return undefined;
          const child = noteOf(file.stem, file, folder.rel, false);
          noteCount++;
          remember(byPath, file.rel.join("/").replace(/\.md$/i, ""), child);
          remember(byStem, file.stem, child);
          remember(byTitle, child.title, child);
          return child;
        },
      });
    }
    items.sort((a, b) => a.order - b.order);
    for (const item of items) {
      const child = item.make();
      if (child) note.children.push(child);
    }
    return note;
  };
  const rootNote = build(root, true);

  // Images: the first embed that is a PNG, JPEG, GIF or WebP becomes the note's image.
  const imageBytes = new Map<ZipEntry, VaultImage | string>();
  for (const entry of embedded) {
    const data = await readEntry(entry, MAX_IMAGE_BYTES, budget);
    if (data === undefined) imageBytes.set(entry, `larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MiB`);
    else {
      const contentType = detectImageType(data);
      imageBytes.set(
        entry,
        contentType
          ? { path: entry.path, bytes: data, contentType }
          : "not a PNG, JPEG, GIF or WebP image (other attachments are not imported)",
      );
    }
  }
  const reported = new Set<string>();
  const report = (path: string, reason: string) => {
    if (reported.has(`${path}\n${reason}`)) return;
    reported.add(`${path}\n${reason}`);
    skipped.push({ path, reason });
  };
  for (const { note, body: rawBody, imageRefs, kept } of pending) {
    let body = rawBody;
    for (const ref of imageRefs) {
      const image = imageBytes.get(ref.entry)!;
      if (typeof image === "string") report(ref.entry.path, image);
      else if (!note.image) {
        note.image = image;
        // The embed that became the note image leaves the text (its line too, when alone on it).
        body = body.replace(new RegExp(`^[ \\t]*${escapeRegExp(ref.text)}[ \\t]*\\n?`, "m"), "");
        body = body.replace(ref.text, "");
      } else if (image.path !== note.image.path) {
        report(ref.entry.path, `a note keeps one image: only the first one embedded in ${note.source} was imported`);
      }
    }
    const details = stripControlCharacters(detailsWithFrontMatter(kept, body.trim()));
    if (details.length > MAX_DETAILS_LENGTH)
      report(note.source!, `its text is longer than ${MAX_DETAILS_LENGTH} characters; the note was imported without it`);
    else note.details = details;
  }
  for (const entry of attachments.values()) {
    if (!embedded.has(entry)) skipped.push({ path: entry.path, reason: "not a Markdown note, and no note embeds it" });
  }

  const resolve = (target: string): VaultNote | undefined => {
    let t = target
      .normalize("NFC")
      .replace(/\\/g, "/")
      .replace(/^\.?\//, "")
      .replace(/\.md$/i, "");
    if (topName !== undefined && lower(t).startsWith(lower(`${topName}/`))) {
      const inner = byPath.get(lower(t.slice(topName.length + 1)));
      if (inner) return inner;
    }
    if (topName !== undefined && lower(t) === lower(topName)) return rootNote;
    const found = byPath.get(lower(t));
    if (found) return found;
    t = t.split("/").at(-1)!;
    if (lower(t) === lower(INDEX_STEM)) return undefined;
    return byStem.get(lower(t)) ?? byTitle.get(lower(t));
  };
  return { root: rootNote, skipped, resolve, noteCount };
}

/** A path written relative to a folder, as a path from the vault's root ("../" resolved). */
function relativeTo(dir: string[], target: string): string {
  if (target.startsWith("/")) return target.slice(1);
  const parts = [...dir];
  for (const part of target.split("/")) {
    if (part === "..") parts.pop();
    else if (part !== "." && part !== "") parts.push(part);
  }
  return parts.join("/");
}

function escapeRegExp(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
