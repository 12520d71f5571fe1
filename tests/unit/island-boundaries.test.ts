import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

// Islands share code only through islands/lib/ (docs/architecture.md): each island folder owns one
// interaction, so an island importing another would couple two features behind the reader's back.

const islandsDir = resolve(import.meta.dir, "../../islands");
const shared = new Set(["lib", "runtime"]);

/** Every import and re-export specifier in a source text, type-only ones included. */
function importSpecifiers(source: string): string[] {
  const pattern =
    /\b(?:import|export)\s[^;'"]*?\bfrom\s*["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']\s*\)|\bimport\s*["']([^"']+)["']/g;
  return [...source.matchAll(pattern)].map((match) => match[1] ?? match[2] ?? match[3]!);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The file a relative specifier names (extension and index file as the bundler resolves them). */
function resolveFile(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  const candidates = [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts"), join(base, "index.tsx")];
  return candidates.find((path) => existsSync(path) && statSync(path).isFile());
}

/** The island folder a path lies in ("lib", "runtime", an island's name), or undefined outside islands/. */
function islandFolder(path: string): string | undefined {
  const inside = relative(islandsDir, path);
  if (inside.startsWith("..")) return undefined;
  const parts = inside.split(sep);
  return parts.length > 1 ? parts[0] : undefined;
}

const relativeImports = (file: string) =>
  importSpecifiers(readFileSync(file, "utf8"))
    .filter((specifier) => specifier.startsWith("."))
    .map((specifier) => ({ specifier, target: resolve(dirname(file), specifier) }));

describe("island boundaries", () => {
  test("the import scanner finds plain, multi-line, type-only, re-export and dynamic imports", () => {
    const source = `import a from "./a";\nimport {\n  b,\n  c,\n} from '../b';\nimport type { D } from "./d";\nexport { e } from "./e";\nconst f = import("./f");\nimport "./g.css";`;
    expect(importSpecifiers(source)).toEqual(["./a", "../b", "./d", "./e", "./f", "./g.css"]);
  });

  test("an island imports no other island (shared code lives in islands/lib/)", () => {
    const islandNames = readdirSync(islandsDir).filter((name) => !shared.has(name) && statSync(join(islandsDir, name)).isDirectory());
    expect(islandNames.length).toBeGreaterThan(5);
    const crossings = islandNames.flatMap((island) =>
      sourceFiles(join(islandsDir, island)).flatMap((file) =>
        relativeImports(file)
          .filter(({ target }) => {
            const folder = islandFolder(target);
            return folder !== undefined && folder !== island && !shared.has(folder);
          })
          .map(({ specifier }) => `${relative(islandsDir, file)} imports ${specifier}`),
      ),
    );
    expect(crossings).toEqual([]);
  });

  test("islands/lib/ modules import each other without a loop", () => {
    const libDir = join(islandsDir, "lib");
    const edges = new Map(
      sourceFiles(libDir).map((file) => [
        file,
        relativeImports(file)
          .map(({ specifier }) => resolveFile(file, specifier))
          .filter((target): target is string => target?.startsWith(libDir + sep) === true),
      ]),
    );
    // Depth-first search; a module met again while still on the path closes a loop.
    const loops: string[] = [];
    const done = new Set<string>();
    const visit = (file: string, path: string[]) => {
      if (path.includes(file)) {
        loops.push([...path.slice(path.indexOf(file)), file].map((f) => relative(libDir, f)).join(" → "));
        return;
      }
      if (done.has(file)) return;
      for (const target of edges.get(file) ?? []) visit(target, [...path, file]);
      done.add(file);
    };
    for (const file of edges.keys()) visit(file, []);
    expect(loops).toEqual([]);
  });
});

describe("islands reach the API through the typed client", () => {
  // islands/lib/api.ts (docs/architecture.md): a URL string stays only where a URL is needed as
  // such — an image's src, a download's href, an event stream, an upload that reports progress.
  test("no island fetches an /api URL of its own", () => {
    const rawCalls = sourceFiles(islandsDir)
      .filter((file) => relative(islandsDir, file) !== join("lib", "api.ts"))
      .flatMap((file) =>
        readFileSync(file, "utf8")
          .split("\n")
          .map((line, index) => ({ where: `${relative(islandsDir, file)}:${index + 1}`, line }))
          .filter(({ line }) => /\bfetch\(\s*[`"']\/api\//.test(line)),
      )
      .map(({ where }) => where);
    expect(rawCalls).toEqual([]);
  });
});
