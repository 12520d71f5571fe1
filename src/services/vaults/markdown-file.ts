/**
 * The parts of a vault's Markdown file: front matter (kept as raw YAML lines per key, so keys
 * Engram does not know are written back exactly), the body, and the links and embeds in it.
 * Only the YAML Obsidian writes as properties is understood: `key: value` lines at the left
 * margin, each followed by its indented or list lines.
 */

/** Keys Engram writes and reads itself; every other key stays at the top of the details. */
export const ENGRAM_KEYS = ["note_id", "created_at", "updated_at", "title", "wikidata_id", "url", "image_url", "note_image"] as const;

export interface FrontMatterEntry {
  key: string;
  /** The entry's lines as written, the key line first. */
  lines: string[];
}

export interface MarkdownFile {
  frontMatter: FrontMatterEntry[];
  body: string;
}

const FRONT_MATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;
const EMPTY_FRONT_MATTER = /^---[ \t]*\r?\n---[ \t]*(?:\r?\n|$)/;

/** Splits front matter (between the first two `---` lines) from the body. */
export function splitMarkdownFile(text: string): MarkdownFile {
  const source = text.replace(/^\uFEFF/, "");
  const empty = EMPTY_FRONT_MATTER.exec(source);
  if (empty) return { frontMatter: [], body: source.slice(empty[0].length) };
  const match = FRONT_MATTER.exec(source);
  if (!match) return { frontMatter: [], body: source };
  const entries: FrontMatterEntry[] = [];
  for (const line of match[1]!.split(/\r?\n/)) {
    const key = /^([^\s#:-][^:]*?)\s*:(?:\s|$)/.exec(line)?.[1];
    if (key !== undefined) entries.push({ key, lines: [line] });
    else if (entries.length > 0) entries.at(-1)!.lines.push(line);
    else if (line.trim() !== "") entries.push({ key: "", lines: [line] });
  }
  return { frontMatter: entries, body: source.slice(match[0].length) };
}

/** A scalar front matter value: quotes removed (a JSON-quoted string is read as JSON); undefined for lists and maps. */
export function scalarValue(entry: FrontMatterEntry | undefined): string | undefined {
  if (!entry || (entry.lines.length > 1 && entry.lines.slice(1).some((line) => line.trim() !== ""))) return undefined;
  const raw = entry.lines[0]!.slice(entry.lines[0]!.indexOf(":") + 1).trim();
  if (raw.startsWith('"') && raw.endsWith('"') && raw.length >= 2) {
    try {
      return String(JSON.parse(raw));
    } catch {
      return raw.slice(1, -1);
    }
  }
  if (raw.startsWith("'") && raw.endsWith("'") && raw.length >= 2) return raw.slice(1, -1).replace(/''/g, "'");
  return raw;
}

/** A value written so YAML reads it back as the same string. */
export function yamlString(value: string): string {
  return /^[\w ./@+-]*$/.test(value) && !/^[\s-]|\s$/.test(value) && value !== "" && !/^(true|false|null|yes|no|~|[\d.+-]+)$/i.test(value)
    ? value
    : JSON.stringify(value);
}

/** The details' own front matter block (kept from an import) and the rest. */
export function splitDetails(details: string): { entries: FrontMatterEntry[]; rest: string } {
  if (!details.startsWith("---")) return { entries: [], rest: details };
  const { frontMatter, body } = splitMarkdownFile(details);
  if (frontMatter.length === 0 && body === details) return { entries: [], rest: details };
  return { entries: frontMatter, rest: body.replace(/^\r?\n/, "") };
}

/** Details that start with the front matter entries Engram does not read (written back on export). */
export function detailsWithFrontMatter(entries: FrontMatterEntry[], body: string): string {
  if (entries.length === 0) return body;
  const block = `---\n${entries.flatMap((entry) => entry.lines).join("\n")}\n---\n`;
  return body ? `${block}\n${body}` : block;
}

export interface WikiLink {
  /** The whole match, e.g. "[[Target|alias]]". */
  text: string;
  /** The target without heading, block or alias: "Target". */
  target: string;
  embed: boolean;
}

const WIKILINK = /(!?)\[\[([^\]\n]+?)\]\]/g;

/**
 * The parts of a wikilink's inside: the target, its #heading or #^block anchor, and what follows
 * the "|" (an alias, or an embed's size). Inside a table the "|" is written "\|".
 */
export function wikiLinkParts(inner: string): { target: string; anchor: string; rest: string | undefined; escapedPipe: boolean } {
  const escapedPipe = /\\\|/.test(inner);
  const unescaped = inner.replace(/\\\|/g, "|");
  const bar = unescaped.indexOf("|");
  const link = bar < 0 ? unescaped : unescaped.slice(0, bar);
  const hash = link.indexOf("#");
  return {
    target: (hash < 0 ? link : link.slice(0, hash)).trim(),
    anchor: hash < 0 ? "" : link.slice(hash),
    rest: bar < 0 ? undefined : unescaped.slice(bar + 1),
    escapedPipe,
  };
}

/** [[wikilinks]] and ![[embeds]] in a text, in order. */
export function wikiLinks(text: string): WikiLink[] {
  const found: WikiLink[] = [];
  for (const match of text.matchAll(WIKILINK)) {
    const target = wikiLinkParts(match[2]!).target.split("^")[0]!.trim();
    if (target) found.push({ text: match[0], target, embed: match[1] === "!" });
  }
  return found;
}

export interface MarkdownImage {
  text: string;
  target: string;
}

const MARKDOWN_IMAGE = /!\[[^\]\n]*\]\(\s*(<[^>\n]+>|[^)\s]+)(?:\s+"[^"\n]*")?\s*\)/g;

const isUrl = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//");

const decoded = (target: string) => {
  try {
    return decodeURI(target);
  } catch {
    return target;
  }
};

/** ![alt](path) images whose path is inside the vault (not a URL), in order, their paths decoded. */
export function markdownImages(text: string): MarkdownImage[] {
  const found: MarkdownImage[] = [];
  for (const match of text.matchAll(MARKDOWN_IMAGE)) {
    const target = match[1]!.replace(/^<|>$/g, "");
    if (!isUrl(target)) found.push({ text: match[0], target: decoded(target) });
  }
  return found;
}

const MARKDOWN_LINK = /(?<!!)\[[^\]\n]*\]\(\s*(<[^>\n]+>|[^)\s]+)(?:\s+"[^"\n]*")?\s*\)/g;

/** [text](path) links to files inside the vault (notes or others, Obsidian's "Markdown links" setting), their paths decoded, anchors left out. */
export function markdownLinks(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(MARKDOWN_LINK)) {
    const target = match[1]!.replace(/^<|>$/g, "").split("#")[0]!;
    if (target && !isUrl(target)) found.push(decoded(target));
  }
  return found;
}
