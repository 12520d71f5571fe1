import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

// No module of src/, islands/ or views/ may import itself back through others: a cycle makes the
// load order decide what is initialised, and two files that need each other are one concept split
// badly. Type-only imports count too (a type cycle is the same tangle, only invisible at run time),
// so the graph is read with TypeScript's import pre-processor rather than Bun's scanImports, which
// drops them.

const root = resolve(import.meta.dir, "../..");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

/** The file a relative specifier names (extension and index file as the bundler resolves them). */
function resolveFile(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  const candidates = [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts"), join(base, "index.tsx")];
  return candidates.find((path) => /\.tsx?$/.test(path) && existsSync(path) && statSync(path).isFile());
}

/** The project files a file imports: static, type-only, re-exports and dynamic imports. */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
  return importedFiles
    .map(({ fileName }) => fileName)
    .filter((specifier) => specifier.startsWith("."))
    .flatMap((specifier) => resolveFile(file, specifier) ?? []);
}

/** Every cycle met by a depth-first walk, each written "a → b → a" with paths relative to base. */
function findCycles(files: string[], base: string): string[] {
  const edges = new Map(files.map((file) => [file, importsOf(file)]));
  const cycles: string[] = [];
  const done = new Set<string>();
  const visit = (file: string, path: string[]) => {
    const start = path.indexOf(file);
    if (start >= 0) {
      cycles.push([...path.slice(start), file].map((f) => relative(base, f)).join(" → "));
      return;
    }
    if (done.has(file)) return;
    for (const target of edges.get(file) ?? []) visit(target, [...path, file]);
    done.add(file);
  };
  for (const file of edges.keys()) visit(file, []);
  return cycles;
}

describe("import cycles", () => {
  test("the cycle finder names a cycle closed by a type-only import", () => {
    const dir = mkdtempSync(join(tmpdir(), "engram-cycles-"));
    try {
      writeFileSync(join(dir, "a.ts"), `import { b } from "./b";\nexport type A = { n: number };\nexport const a = b;\n`);
      writeFileSync(join(dir, "b.ts"), `import type { A } from "./a";\nexport const b: A = { n: 1 };\n`);
      writeFileSync(join(dir, "c.ts"), `import { a } from "./a";\nexport const c = a;\n`);
      const files = ["a.ts", "b.ts", "c.ts"].map((name) => join(dir, name));
      expect(findCycles(files, dir)).toEqual(["a.ts → b.ts → a.ts"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("src/, islands/ and views/ have no import cycle", () => {
    const files = ["src", "islands", "views"].flatMap((dir) => sourceFiles(join(root, dir)));
    expect(files.length).toBeGreaterThan(200);
    expect(findCycles(files, root)).toEqual([]);
  });
});
