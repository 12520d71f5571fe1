/**
 * Checks a vault as Obsidian would open it, independently of Engram's own link code: every
 * [[wikilink]], ![[embed]], [text](link) and ![image](path) outside code must name a file of the
 * vault, found as Obsidian finds it (a path from the linking note's folder when it starts with
 * ./ or ../, else the exact path from the vault's root, else from the note's folder, else the one
 * file whose path ends with it, the note's own folder first), and a #heading anchor must name a
 * heading of that note.
 */

export interface VaultLink {
  file: string;
  text: string;
  target: string;
  anchor: string;
}

const FENCE = /^ {0,3}(```|~~~)/;

/** The links of a note outside code: wikilinks (table pipes unescaped) and Markdown links to vault files. */
export function linksOf(markdown: string): { text: string; target: string; anchor: string }[] {
  const found: { text: string; target: string; anchor: string }[] = [];
  let inFence = false;
  for (const line of markdown.split("\n")) {
    if (FENCE.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    const outsideCode = line.replace(/`[^`]*`/g, "");
    for (const match of outsideCode.matchAll(/!?\[\[([^\]\n]+?)\]\]/g)) {
      const link = match[1]!.replace(/\\\|/g, "|").split("|")[0]!;
      const hash = link.indexOf("#");
      found.push({ text: match[0], target: hash < 0 ? link : link.slice(0, hash), anchor: hash < 0 ? "" : link.slice(hash + 1) });
    }
    for (const match of outsideCode.matchAll(/!?\[[^\]\n]*\]\(\s*(<[^>\n]+>|[^)\s]+)[^)]*\)/g)) {
      const raw = match[1]!.replace(/^<|>$/g, "");
      if (/^[a-z][a-z0-9+.-]*:/i.test(raw) || raw.startsWith("#")) continue;
      const hash = raw.indexOf("#");
      found.push({
        text: match[0],
        target: decodeURI(hash < 0 ? raw : raw.slice(0, hash)),
        anchor: hash < 0 ? "" : decodeURI(raw.slice(hash + 1)),
      });
    }
  }
  return found;
}

const folderOf = (path: string) => path.split("/").slice(0, -1);
const normalize = (parts: string[]) => {
  const out: string[] = [];
  for (const part of parts) {
    if (part === "..") out.pop();
    else if (part !== "." && part !== "") out.push(part);
  }
  return out.join("/");
};

/** The file a link target names, seen from `source`, among `files` (paths from the vault's root). */
export function obsidianResolve(files: string[], target: string, source: string): string | undefined {
  const byKey = new Map(files.map((file) => [file.toLowerCase(), file]));
  const candidates = /\.[A-Za-z0-9]+$/.test(target) && !/\.md$/i.test(target) ? [target] : [target, `${target}.md`];
  for (const candidate of candidates) {
    if (/^\.\.?\//.test(candidate)) {
      const found = byKey.get(normalize([...folderOf(source), ...candidate.split("/")]).toLowerCase());
      if (found) return found;
      continue;
    }
    const exact =
      byKey.get(normalize(candidate.split("/")).toLowerCase()) ??
      byKey.get(normalize([...folderOf(source), ...candidate.split("/")]).toLowerCase());
    if (exact) return exact;
    const suffix = `/${normalize(candidate.split("/")).toLowerCase()}`;
    const ending = files.filter((file) => `/${file.toLowerCase()}`.endsWith(suffix));
    if (ending.length === 0) continue;
    const beside = ending.find((file) => folderOf(file).join("/") === folderOf(source).join("/"));
    return beside ?? [...ending].sort((a, b) => a.split("/").length - b.split("/").length)[0];
  }
  return undefined;
}

/** The slug-free heading texts of a note ("## Interface" → "interface"). */
const headingsOf = (markdown: string) =>
  new Set([...markdown.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)].map((match) => match[1]!.trim().toLowerCase()));

/**
 * Every link of the vault's notes that does not resolve (or whose #heading the target lacks), as
 * "file: link". `vault`: the files by their path from the vault's root, as text or bytes.
 */
export function brokenLinks(vault: Map<string, string>): string[] {
  const files = [...vault.keys()];
  const broken: string[] = [];
  for (const [file, content] of vault) {
    if (!file.endsWith(".md")) continue;
    for (const link of linksOf(content)) {
      if (link.target === "") continue; // [[#Heading]] of the note itself
      const found = obsidianResolve(files, link.target, file);
      if (!found) broken.push(`${file}: ${link.text}`);
      else if (
        link.anchor &&
        !link.anchor.startsWith("^") &&
        found.endsWith(".md") &&
        !headingsOf(vault.get(found)!).has(link.anchor.toLowerCase())
      )
        broken.push(`${file}: ${link.text} (no heading "${link.anchor}")`);
    }
  }
  return broken;
}
