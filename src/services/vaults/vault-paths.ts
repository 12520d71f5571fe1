/**
 * Paths in an Obsidian vault and how a link names them, as Obsidian reads and writes them, with
 * the vault's top folder as its root: `[[Note]]` is "Note.md" anywhere in the vault (the one
 * beside the linking note first, else the one with the shortest path), `[[Folder/Note]]` a path
 * from the root or the end of a longer one, `./` and `../` a path from the linking note's folder.
 * Links written with the vault's own folder in front ("Obsidian Help/Plugins/Templates", as a
 * vault zipped with its folder reads) are read without it. Links are written back as Obsidian's
 * "shortest path when possible": the file's name when no other file has it, else its whole path.
 */

/** The parts of a path, "." and ".." resolved, NFC; the path separator may be "/" or "\". */
export function pathParts(path: string, from: string[] = []): string[] {
  const parts = [...from];
  for (const part of path.normalize("NFC").replace(/\\/g, "/").split("/")) {
    if (part === "..") parts.pop();
    else if (part !== "." && part !== "") parts.push(part);
  }
  return parts;
}

const keyOf = (parts: string[]) => parts.join("/").toLowerCase();
const isRelative = (target: string) => /^\.\.?(\/|\\|$)/.test(target);

/** The file name of a path without ".md" (a note's link name); other files keep their extension. */
export function linkName(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  return /\.md$/i.test(name) ? name.slice(0, -3) : name;
}

/** A path as a link names it: without ".md". */
const linkPath = (path: string) => (/\.md$/i.test(path) ? path.slice(0, -3) : path);

export class VaultPaths {
  private readonly byKey = new Map<string, string>();
  private readonly byName = new Map<string, string[]>();

  /**
   * `paths`: every file of the vault, from its root, with extensions ("Plugins/Templates.md").
   * `aliases`: other paths that name a file (a folder note "Plugins/__index.md" is also "Plugins.md").
   */
  constructor(paths: Iterable<string>, aliases: Iterable<[string, string]> = []) {
    for (const path of paths) {
      const key = keyOf(pathParts(path));
      if (this.byKey.has(key)) continue;
      this.byKey.set(key, path);
      const name = key.slice(key.lastIndexOf("/") + 1);
      this.byName.set(name, [...(this.byName.get(name) ?? []), path]);
    }
    for (const [alias, path] of aliases) {
      const key = keyOf(pathParts(alias));
      if (this.byKey.has(key)) continue;
      this.byKey.set(key, path);
      const name = key.slice(key.lastIndexOf("/") + 1);
      this.byName.set(name, [...(this.byName.get(name) ?? []), path]);
    }
  }

  has(path: string): boolean {
    return this.byKey.has(keyOf(pathParts(path)));
  }

  /**
   * The file a link target names ("Note", "Folder/Note.md", "../x.png"), seen from a note in the
   * folder `from`; a target without ".md" names a note when no other file has that exact name.
   */
  resolve(target: string, from: string[] = []): string | undefined {
    const clean = target.trim();
    if (!clean) return undefined;
    for (const candidate of [clean, `${clean}.md`]) {
      const found = this.resolveExactly(candidate, from);
      if (found) return found;
    }
    return undefined;
  }

  private resolveExactly(target: string, from: string[]): string | undefined {
    if (isRelative(target)) return this.byKey.get(keyOf(pathParts(target, from)));
    const parts = pathParts(target);
    if (parts.length === 0) return undefined;
    const fromRoot = this.byKey.get(keyOf(parts));
    if (fromRoot) return fromRoot;
    const beside = this.byKey.get(keyOf([...from, ...parts]));
    if (beside) return beside;
    // The end of a longer path; leading folders the vault does not have (its own folder) dropped.
    for (let drop = 0; drop < parts.length; drop++) {
      const tail = parts.slice(drop);
      const suffix = `/${keyOf(tail)}`;
      const candidates = (this.byName.get(tail.at(-1)!.toLowerCase()) ?? []).filter((path) => {
        const key = keyOf(pathParts(path));
        return key === keyOf(tail) || key.endsWith(suffix);
      });
      if (candidates.length > 0) return nearest(candidates, from);
    }
    return undefined;
  }

  /** How a link names this file: its name when no other file has that name, else its whole path (both without ".md"). */
  linkTarget(path: string): string {
    const name = linkName(path).toLowerCase();
    const sameName = (this.byName.get(/\.md$/i.test(path) ? `${name}.md` : name) ?? []).filter((other) => other !== path);
    return sameName.length === 0 && !/^__index$/i.test(linkName(path)) ? linkName(path) : linkPath(path);
  }
}

/** Of several files of one name: the one in the linking note's folder, else the shortest path. */
function nearest(candidates: string[], from: string[]): string {
  const folder = keyOf(from);
  const beside = candidates.find((path) => keyOf(pathParts(path).slice(0, -1)) === folder);
  if (beside) return beside;
  return [...candidates].sort((a, b) => pathParts(a).length - pathParts(b).length || a.localeCompare(b))[0]!;
}
