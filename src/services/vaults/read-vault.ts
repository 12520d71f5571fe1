/**
 * Reads an Obsidian vault (a zip) into a tree of notes to import, without touching the database:
 * folders and Markdown files by the export's layout, front matter, typed and plain wikilinks,
 * and the files the notes embed or link to (images, audio, video, PDF), which stay where the
 * text embeds them. Links are resolved as Obsidian does (vault-paths.ts). What cannot be
 * imported is listed with the reason.
 */
import { detectImageType, type ImageContentType, MAX_IMAGE_BYTES } from "../accessories/image-bytes";
import { isLinkType } from "../links/link-types";
import { MAX_DETAILS_LENGTH, MAX_TITLE_LENGTH } from "../notes/validation";
import { stripControlCharacters } from "../text-input";
import { detectAttachmentType, MAX_ATTACHMENT_BYTES } from "./attachment-types";
import { linksOutsideCode } from "./link-rewrite";
import { detailsWithFrontMatter, ENGRAM_KEYS, type FrontMatterEntry, scalarValue, splitMarkdownFile, wikiLinks } from "./markdown-file";
import { INDEX_FILE, INDEX_STEM, isHiddenPath, stemFitsTitle } from "./names";
import { VAULT_LIMITS, VaultImportError, type ZipArchive, type ZipEntry } from "./read-zip";
import { pathParts, VaultPaths } from "./vault-paths";

export interface SkippedFile {
  path: string;
  reason: string;
}

/** What a vault import did, and what it skipped with the reason. */
export interface ImportReport {
  created: number;
  updated: number;
  links: number;
  images: number;
  /** Files the notes embed or link to, added or changed (images, audio, video, PDF). */
  attachments: number;
  skipped: SkippedFile[];
}

/** An image of the vault, stored as soon as it was read (its bytes are not kept in memory). */
export interface VaultImage {
  path: string;
  /** The note_images row holding its bytes. */
  imageId: number;
  /** sha-256 of its bytes (hex), to tell whether a note's image changed. */
  sha256: string;
  contentType: ImageContentType;
}

/** A file the notes embed or link to, kept for the notebook at its place in the vault. */
export interface VaultAttachment {
  /** From the vault's top folder: "Attachments/Diagram.png". */
  path: string;
  bytes: Uint8Array;
  contentType: string;
}

/**
 * Stores an image's bytes as they are read; answers once it has taken them, with the row they
 * will have (the worker writes files a few at a time, so the id may come later).
 */
export type StoreImage = (image: { path: string; bytes: Uint8Array; contentType: ImageContentType }) => Promise<{ id: Promise<number> }>;

/** Images handed to a StoreImage: each VaultImage gets its id when the store has it; `ready` waits for them all. */
export class StoredImages {
  private readonly pending: Promise<void>[] = [];

  constructor(private readonly storeImage: StoreImage) {}

  async store(path: string, bytes: Uint8Array, contentType: ImageContentType): Promise<VaultImage> {
    const sha256 = new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
    const { id } = await this.storeImage({ path, bytes, contentType });
    const image: VaultImage = { path, imageId: 0, sha256, contentType };
    const filled = id.then((imageId) => {
      image.imageId = imageId;
    });
    // Heard by `ready`; a failure also fails the store's next call.
    filled.catch(() => {});
    this.pending.push(filled);
    return image;
  }

  async ready(): Promise<void> {
    await Promise.all(this.pending);
  }
}

/** Stores a file the notes embed as soon as it is read (its bytes are not kept in memory). */
export type StoreAttachment = (attachment: VaultAttachment) => Promise<void> | void;

/** Reports how many Markdown files were read, of how many. */
export type ReadProgress = (read: number, total: number) => void;

export interface VaultNote {
  title: string;
  /** The Markdown file giving the note its text, if any (zip path, for reports). */
  source?: string;
  /** The folder of that file, from the vault's top folder: links in its text are read from there. */
  folder: string[];
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
  /** The vault note a [[wikilink]] target names, read from a note in the folder `from`, if any. */
  resolve(target: string, from?: string[]): VaultNote | undefined;
  /** How many files the notes embed or link to were kept (handed to `storeAttachment`). */
  attachments: number;
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

interface Pending {
  note: VaultNote;
  body: string;
  /** The file the export named as the note's image (front matter note_image), and the embed it wrote for it. */
  noteImage?: { entry: ZipEntry; embed: string };
  /** The files its text embeds or links to. */
  files: ZipEntry[];
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

export interface VaultStorage {
  storeImage: StoreImage;
  storeAttachment: StoreAttachment;
  progress?: ReadProgress;
}

/**
 * Reads a vault to import under a head note titled `headTitle` (its text may start with
 * "# <headTitle>"). The archive is read entry by entry; each note image and each file the notes
 * embed is handed to `storage` as soon as it is read, so only the notes' text stays in memory.
 */
export async function readVault(archive: ZipArchive, headTitle: string, storage: VaultStorage): Promise<Vault> {
  const { entries } = archive;
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
  const markdown: MdFile[] = [];
  visible.forEach((entry, order) => {
    const rel = relOf(entry);
    const name = rel.at(-1)!;
    if (!isMarkdown(name)) {
      attachments.set(rel.join("/"), entry);
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
  for (const [i, file] of markdown.entries()) {
    if (i % 200 === 0) storage.progress?.(i, markdown.length);
    const data = await archive.read(file.entry, VAULT_LIMITS.markdownBytes);
    if (data === undefined) {
      skipped.push({ path: file.entry.path, reason: `larger than ${VAULT_LIMITS.markdownBytes / 1024 / 1024} MiB` });
      file.used = true;
    } else file.text = decoder.decode(data);
  }

  /** The file an embed or link names, looked up as Obsidian does (beside the note, from the root, then by name). */
  const attachmentPaths = new VaultPaths(attachments.keys());
  const findAttachment = (target: string, dir: string[]): ZipEntry | undefined => {
    if (/\.md$/i.test(target)) return undefined;
    const path = attachmentPaths.resolve(target, dir);
    return path === undefined || !/\.[^/.]+$/.test(path) ? undefined : attachments.get(path);
  };

  /** Every file a note names (its text or its note_image), so that the others are reported. */
  const referenced = new Set<ZipEntry>();
  const pending: Pending[] = [];
  const byPath = new Map<string, VaultNote>();
  const byStem = new Map<string, VaultNote>();
  const byTitle = new Map<string, VaultNote>();
  const remember = (map: Map<string, VaultNote>, key: string, note: VaultNote) => {
    if (!map.has(lower(key))) map.set(lower(key), note);
  };

  /** A note from a Markdown file (or none: a folder without text) named `name` in folder `dir`. */
  const noteOf = (name: string, file: MdFile | undefined, dir: string[], isHead: boolean): VaultNote => {
    const note: VaultNote = { title: cleanTitle(name), folder: dir, typedLinks: [], relatedLinks: [], children: [] };
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

    // Embeds and links to files keep them for the notebook; the text stays as written. Code is not read.
    const files: ZipEntry[] = [];
    const links = linksOutsideCode(body);
    for (const link of links) {
      const entry = findAttachment(link.target, dir);
      if (entry) files.push(entry);
      else if (link.kind === "wikilink" || (!link.embed && /\.md$/i.test(link.target))) note.relatedLinks.push(link.target);
    }
    for (const entry of files) referenced.add(entry);
    // Engram's export names a note's own image in front matter (note_image) and embeds it last:
    // that embed is the note's image again, not a file of the text.
    let noteImage: Pending["noteImage"];
    const imageTarget = value("note_image")
      ?.trim()
      .replace(/^\[\[(.*)\]\]$/, "$1");
    const imageEntry = imageTarget ? findAttachment(imageTarget, dir) : undefined;
    const lastEmbed = links.filter((link) => link.kind === "wikilink").at(-1);
    if (imageEntry && lastEmbed?.embed && body.trimEnd().endsWith(lastEmbed.text) && findAttachment(lastEmbed.target, dir) === imageEntry) {
      noteImage = { entry: imageEntry, embed: lastEmbed.text };
      files.splice(files.lastIndexOf(imageEntry), 1);
    }
    const kept = frontMatter.filter((entry) => !(ENGRAM_KEYS as readonly string[]).includes(entry.key));
    // Details are set once the files are read (the note image's embed leaves them).
    pending.push({ note, body, kept, noteImage, files });
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

  const reported = new Set<string>();
  const report = (path: string, reason: string) => {
    if (reported.has(`${path}\n${reason}`)) return;
    reported.add(`${path}\n${reason}`);
    skipped.push({ path, reason });
  };
  const noteImages = new Map<ZipEntry, VaultImage | undefined>();
  const stored = new StoredImages(storage.storeImage);
  for (const { noteImage } of pending) {
    if (!noteImage || noteImages.has(noteImage.entry)) continue;
    referenced.add(noteImage.entry);
    const data = await archive.read(noteImage.entry, MAX_IMAGE_BYTES);
    const contentType = data && detectImageType(data);
    noteImages.set(noteImage.entry, data && contentType ? await stored.store(noteImage.entry.path, data, contentType) : undefined);
  }
  await stored.ready();
  const textFiles = new Set<ZipEntry>();
  for (const { note, body: rawBody, noteImage, kept, files } of pending) {
    let body = rawBody;
    const image = noteImage && noteImages.get(noteImage.entry);
    if (noteImage && image) {
      note.image = image;
      body = body.trimEnd().slice(0, -noteImage.embed.length);
    } else if (noteImage) files.push(noteImage.entry);
    for (const entry of files) textFiles.add(entry);
    const details = stripControlCharacters(detailsWithFrontMatter(kept, body.trim()));
    if (details.length > MAX_DETAILS_LENGTH)
      report(note.source!, `its text is longer than ${MAX_DETAILS_LENGTH} characters; the note was imported without it`);
    else note.details = details;
  }
  let keptFiles = 0;
  for (const entry of textFiles) {
    const data = await archive.read(entry, MAX_ATTACHMENT_BYTES);
    if (data === undefined) {
      report(entry.path, `larger than ${MAX_ATTACHMENT_BYTES / 1024 / 1024} MiB`);
      continue;
    }
    const type = detectAttachmentType(data, entry.parts.at(-1)!);
    if (!type) report(entry.path, "not an image, audio, video or PDF file (other files are not imported)");
    else {
      await storage.storeAttachment({ path: relOf(entry).join("/"), bytes: data, contentType: type.contentType });
      keptFiles++;
    }
  }
  for (const entry of attachments.values()) {
    if (!referenced.has(entry)) skipped.push({ path: entry.path, reason: "not a Markdown note, and no note embeds it" });
  }

  // Notes by their files' paths (a folder note also by its folder's), read as Obsidian reads links.
  const notePaths = new VaultPaths([...byPath.keys()].filter((key) => key !== "").map((key) => `${key}.md`));
  const resolve = (target: string, from: string[] = []): VaultNote | undefined => {
    const t = target.normalize("NFC").replace(/\\/g, "/").replace(/\.md$/i, "");
    if (topName !== undefined && lower(pathParts(t).join("/")) === lower(topName)) return rootNote;
    const path = notePaths.resolve(t, from);
    if (path !== undefined) return byPath.get(lower(path.slice(0, -3)));
    const name = pathParts(t).at(-1);
    return name === undefined ? undefined : (byStem.get(lower(name)) ?? byTitle.get(lower(name)));
  };
  return { root: rootNote, skipped, resolve, attachments: keptFiles, noteCount };
}
