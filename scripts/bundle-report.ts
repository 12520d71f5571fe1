/**
 * What each island entry makes a page download: `bun scripts/bundle-report.ts [entries...]`
 * (after `bun scripts/build-client.ts`, which writes build/entries) builds the islands again as the
 * client build does, with the bundler's metafile, into a folder of its own, and prints for the
 * named entries together (e.g. `note-show note-tree app-shell`, the note page's) or for each entry:
 *   - the files loaded at hydration (the entries and their static imports) with their size as
 *     served (Brotli, quality 11), and the largest modules in them;
 *   - the files their dynamic import()s load on first use, and what is in them.
 * The vendor file (React, React DOM, TanStack Query: client-vendor.ts) comes on top, on every page.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, constants } from "node:zlib";
import { islandPlugins, islandsBuild } from "./build-client";
import { buildVendor } from "./client-vendor";

interface MetaOutput {
  entryPoint?: string;
  imports: { path: string; kind: string }[];
  inputs: Record<string, { bytesInOutput: number }>;
}

const root = join(import.meta.dir, "..");
const entriesDir = join(root, "build/entries");
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const served = (bytes: Uint8Array) => brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
const LARGEST_MODULES = 12;

async function main(wanted: string[]) {
  const outDir = mkdtempSync(join(tmpdir(), "engram-bundle-report-"));
  try {
    const entrypoints = readdirSync(entriesDir)
      .filter((file) => file.endsWith(".tsx"))
      .map((file) => join(entriesDir, file));
    const vendor = await buildVendor({ root, outDir, entriesDir });
    const result = await Bun.build({ ...islandsBuild(entrypoints, outDir, islandPlugins(vendor.plugin)), metafile: true });
    if (!result.success || !result.metafile) throw new Error("The islands' build failed");
    const outputs = (typeof result.metafile === "string" ? JSON.parse(result.metafile) : result.metafile).outputs as Record<
      string,
      MetaOutput
    >;
    const size = new Map<string, number>();
    const sizeOf = (file: string) => {
      if (!size.has(file)) size.set(file, served(readFileSync(join(outDir, file.replace(/^.*\//, "")))));
      return size.get(file)!;
    };
    console.log(`vendor file (every page): ${kb(served(vendor.bytes))}`);
    const entryFile = (name: string) => Object.keys(outputs).find((file) => outputs[file]!.entryPoint?.endsWith(`/${name}.tsx`));
    const groups = wanted.length ? [wanted] : entrypoints.map((file) => [file.replace(/^.*\/|\.tsx$/g, "")]);
    for (const group of groups) {
      const starts = group.map((name) => entryFile(name) ?? missing(name));
      const loaded = closure(outputs, starts);
      const lazy = new Set(
        [...loaded].flatMap((file) =>
          outputs[file]!.imports.filter((i) => i.kind === "dynamic-import" && !loaded.has(i.path)).map((i) => i.path),
        ),
      );
      const total = [...loaded].reduce((sum, file) => sum + sizeOf(file), 0);
      console.log(`\n${group.join(" + ")}: ${loaded.size} files at hydration, ${kb(total)} (+ vendor)`);
      const modules = [...loaded]
        .flatMap((file) => Object.entries(outputs[file]!.inputs).map(([module, input]) => ({ module, bytes: input.bytesInOutput })))
        .sort((a, b) => b.bytes - a.bytes);
      for (const { module, bytes } of modules.slice(0, LARGEST_MODULES)) console.log(`  ${kb(bytes).padStart(9)} minified  ${module}`);
      console.log(`  loaded on first use (dynamic import):`);
      for (const file of [...lazy].sort((a, b) => sizeOf(b) - sizeOf(a))) {
        const inside = Object.keys(outputs[file]!.inputs).slice(0, 3).join(", ");
        console.log(`  ${kb(sizeOf(file)).padStart(9)} served    ${inside}`);
      }
    }
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

/** The files loaded with the starts: they and their static imports, transitively. */
function closure(outputs: Record<string, MetaOutput>, starts: string[]): Set<string> {
  const loaded = new Set<string>();
  const pending = [...starts];
  while (pending.length) {
    const file = pending.pop()!;
    if (loaded.has(file) || !outputs[file]) continue;
    loaded.add(file);
    for (const imported of outputs[file].imports) if (imported.kind === "import-statement") pending.push(imported.path);
  }
  return loaded;
}

function missing(name: string): never {
  throw new Error(`No island entry "${name}" in build/entries: run bun scripts/build-client.ts first`);
}

await main(process.argv.slice(2));
