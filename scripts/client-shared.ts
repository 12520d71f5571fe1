/**
 * The islands' shared code (the island runtime, the API client, the UI store, the menus' and
 * dialogs' wrappers, icons...: what the app shell's islands import at once), bundled as one chunk.
 *
 * The bundler cuts shared code by which entries use it, and every lazily loaded part (a dialog,
 * the rich editor) is an entry of its own for it: this code was cut into about a dozen small
 * chunks, each compressed on its own (1 to 2 KB more on every page than as one file), each one
 * more request. Here every import of one of these modules from outside them goes through one hub
 * module that re-exports them all, so that whoever uses one uses them all, and the bundler keeps
 * them together. It is one build still: each module is bundled once, with one state.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import type { BunPlugin } from "bun";

const SOURCE = /\.(tsx?|jsx?|mjs)$/;

/** The imports of one source file that are project files (relative paths), resolved: static ones, or dynamic import()s. */
function localImports(file: string, kind: "import-statement" | "dynamic-import" = "import-statement"): string[] {
  const loader = file.endsWith(".tsx") ? "tsx" : file.endsWith(".jsx") ? "jsx" : file.endsWith(".ts") ? "ts" : "js";
  // scan drops type-only imports, as the bundler does.
  const { imports } = new Bun.Transpiler({ loader }).scan(readFileSync(file, "utf8"));
  return imports
    .filter((entry) => entry.kind === kind && entry.path.startsWith("."))
    .map((entry) => Bun.resolveSync(entry.path, dirname(file)));
}

/** The names a module exports (types left out). */
function exportedNames(file: string): string[] {
  const loader = file.endsWith(".tsx") ? "tsx" : "ts";
  return new Bun.Transpiler({ loader }).scan(readFileSync(file, "utf8")).exports;
}

/**
 * The seeds and the project modules they import at once, directly or not, except those under
 * the `own` folders (the shell islands' own code, which stays in their entry).
 */
export function sharedModules(seeds: string[], own: string[]): string[] {
  const found = new Set<string>();
  const visited = new Set<string>();
  const pending = [...seeds];
  while (pending.length) {
    const file = pending.pop()!;
    if (visited.has(file) || !SOURCE.test(file)) continue;
    visited.add(file);
    if (!own.some((folder) => file.startsWith(`${folder}/`))) found.add(file);
    pending.push(...localImports(file));
  }
  return [...found].sort();
}

/**
 * The modules a page's islands import at once that some other code of the islands (another
 * island, a lazily loaded part) imports too. The bundler cuts each such module into a small chunk
 * of its own, one more file on the page's first load: in the shared chunk they come in one piece
 * (about 1 KB less on the note page, about 1.3 KB more elsewhere).
 */
export function pageSharedModules(root: string, pageIslands: string[], islands: string[]): string[] {
  const folders = pageIslands.map((name) => join(root, "islands", name));
  const page = new Set(
    sharedModules(
      folders.map((folder) => join(folder, "index.tsx")),
      [],
    ),
  );
  // Every module of the islands, with what the lazily loaded parts import.
  const all = new Set<string>();
  const pending = islands.map((name) => join(root, "islands", name, "index.tsx"));
  while (pending.length) {
    const file = pending.pop()!;
    if (all.has(file) || !SOURCE.test(file)) continue;
    all.add(file);
    pending.push(...localImports(file), ...localImports(file, "dynamic-import"));
  }
  const importedElsewhere = new Set([...all].filter((file) => !page.has(file)).flatMap((file) => localImports(file)));
  return [...page].filter((file) => importedElsewhere.has(file)).sort();
}

/**
 * Writes the hub (one `export *` per shared module) and answers the plugin that routes every
 * static import of a shared module from any other module to the hub. Two shared modules may not
 * export one name: the hub could not say whose it is (the build would fail on a vaguer error).
 */
export function sharedCodePlugin(modules: string[], hub: string, write: (file: string, text: string) => void): BunPlugin {
  const owner = new Map<string, string>();
  for (const file of modules) {
    if (!/\.tsx?$/.test(file)) throw new Error(`The shared island code must be TypeScript: ${file}`);
    for (const name of exportedNames(file)) {
      if (name === "default") throw new Error(`A shared island module cannot have a default export: ${file}`);
      const other = owner.get(name);
      if (other) throw new Error(`Shared island modules ${other} and ${file} both export "${name}": rename one`);
      owner.set(name, file);
    }
  }
  write(hub, `${modules.map((file) => `export * from ${JSON.stringify(`./${relative(dirname(hub), file)}`)};`).join("\n")}\n`);
  const shared = new Set(modules);
  return {
    name: "engram-shared-code",
    setup(build) {
      build.onResolve({ filter: /^\./ }, (args) => {
        if (args.kind !== "import-statement" || args.importer === hub || shared.has(args.importer)) return undefined;
        let resolved: string;
        try {
          resolved = Bun.resolveSync(args.path, dirname(args.importer));
        } catch {
          return undefined; // the bundler says what is wrong
        }
        // The hub exports the module's names (and all the others': the importer takes what it needs).
        return shared.has(resolved) ? { path: hub } : undefined;
      });
    },
  };
}

/** The seeds of the shared code: the island runtime and the shell islands (their own folders left out). */
export function shellSeeds(root: string, islands: string[]): { seeds: string[]; own: string[] } {
  const own = islands.map((name) => join(root, "islands", name));
  const seeds = [join(root, "islands/runtime/hydrate.tsx"), ...own.map((folder) => join(folder, "index.tsx")).filter(existsSync)];
  return { seeds, own };
}
