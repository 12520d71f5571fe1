/**
 * File and folder names for Obsidian vaults: a note's title made safe as a file name on every
 * system Obsidian runs on (Windows, macOS, Linux, phones) and usable inside a [[wikilink]], and
 * kept unique among its siblings. Pure functions, shared by the export and the import.
 */

/** The file that holds a folder note's own text. */
export const INDEX_FILE = "__index.md";
export const INDEX_STEM = "__index";

/** Longest file name stem in UTF-8 bytes (file systems allow 255; room is left for " (n)" and the extension). */
export const MAX_NAME_BYTES = 200;

// Forbidden on Windows (/ \ : * ? " < > |), plus what breaks a wikilink ([ ] # ^ |) and control characters.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are among the unsafe ones replaced.
const UNSAFE = /[/\\:*?"<>|[\]#^\u0000-\u001f\u007f]/g;
const RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;

function truncateBytes(text: string, maxBytes: number): string {
  const encoder = new TextEncoder();
  if (encoder.encode(text).length <= maxBytes) return text;
  let out = "";
  let bytes = 0;
  // Code points, never half a surrogate pair; a combining mark may be cut from its base, which stays valid.
  for (const char of text) {
    const size = encoder.encode(char).length;
    if (bytes + size > maxBytes) break;
    out += char;
    bytes += size;
  }
  return out;
}

/**
 * A title as a file name stem: unsafe characters become "_", leading dots and spaces and
 * trailing dots and spaces go, reserved Windows names get a "_" added, and long titles are cut
 * to MAX_NAME_BYTES. Never empty and never "__index".
 */
export function safeName(title: string): string {
  let name = title.normalize("NFC").replace(/\s+/g, " ").replace(UNSAFE, "_");
  name = name.replace(/^[.\s]+/, "").replace(/[.\s]+$/, "");
  name = truncateBytes(name, MAX_NAME_BYTES).replace(/[.\s]+$/, "");
  if (name === "") return "Untitled";
  if (RESERVED.test(name)) name = `${name}_`;
  if (name.toLowerCase() === INDEX_STEM) name = `${name}_`;
  return name;
}

/**
 * Hands out names unique within one folder, ignoring case (macOS and Windows folders do):
 * "Name", then "Name (2)", "Name (3)"...
 */
export class FolderNames {
  private used = new Set<string>();

  /** Marks names as taken (e.g. "__index.md"). */
  reserve(...names: string[]) {
    for (const name of names) this.used.add(name.toLowerCase());
  }

  /**
   * A free stem for a note: neither "<stem>.md" nor a folder "<stem>" is taken (a folder and a
   * file of the same stem side by side would read as a folder note on import).
   */
  noteStem(title: string): string {
    const base = safeName(title);
    for (let n = 1; ; n++) {
      const stem = n === 1 ? base : `${base} (${n})`;
      if (!this.used.has(stem.toLowerCase()) && !this.used.has(`${stem}.md`.toLowerCase())) {
        this.reserve(stem, `${stem}.md`);
        return stem;
      }
    }
  }

  /** A free file name "<stem>.<extension>" (attachments written beside a note). */
  fileName(stem: string, extension: string): string {
    const base = safeName(stem);
    for (let n = 1; ; n++) {
      const name = `${n === 1 ? base : `${base} (${n})`}.${extension}`;
      if (!this.used.has(name.toLowerCase())) {
        this.reserve(name);
        return name;
      }
    }
  }
}

/** True when `stem` is the file name the export would give `title` (perhaps with a " (n)" suffix). */
export function stemFitsTitle(stem: string, title: string): boolean {
  const safe = safeName(title);
  if (stem.normalize("NFC") === safe) return true;
  const match = /^(.*) \((\d+)\)$/.exec(stem.normalize("NFC"));
  return !!match && match[1] === safe;
}

/** The parts of a zip entry's path; undefined when it escapes the archive (absolute, "..", a drive). */
export function entryPathParts(path: string): string[] | undefined {
  const unified = path.replace(/\\/g, "/");
  if (unified.startsWith("/") || /^[a-zA-Z]:/.test(unified)) return undefined;
  const parts = unified.split("/").filter((part) => part !== "" && part !== ".");
  if (parts.some((part) => part === "..")) return undefined;
  return parts.map((part) => part.normalize("NFC"));
}

/** Hidden and system entries Obsidian or an operating system leaves in a vault. */
export function isHiddenPath(parts: string[]): boolean {
  return parts.some((part) => part.startsWith(".") || part === "__MACOSX" || part === "Thumbs.db" || part === "desktop.ini");
}
