/**
 * The libraries every island runs on (React, React DOM, TanStack Query), built first as one file
 * of their own, which the islands' build then imports instead of bundling them.
 *
 * Built together with the islands, they were cut into a dozen chunks: every lazily loaded part
 * (a dialog, the rich editor) is an entry point of its own for the bundler, so whatever of React
 * or the query client it shares with the pages went into a chunk for that set of entries, each
 * file compressed on its own. As one file a page downloads them once, in one piece, and every
 * island and lazy part shares the same React.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BunPlugin } from "bun";
import { pruneTerserCache, terserMinified } from "./client-terser";
import { writeWhole } from "./write-whole";

/** The import specifiers served from the vendor file. */
const VENDOR_FILTER = /^(react|react\/jsx-runtime|react-dom|react-dom\/client|@tanstack\/react-query)$/;

/** Every .ts/.tsx file under a folder. */
function sourceFiles(path: string): string[] {
  return readdirSync(path, { withFileTypes: true }).flatMap((entry) => {
    const full = join(path, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && statSync(full).isFile() ? [full] : [];
  });
}

/**
 * The names the islands import from TanStack Query: only those are kept (the library exports many
 * hooks no island uses). A name missed here fails the islands' build ("No matching export").
 */
function queryNamesUsed(islandsDir: string): string[] {
  const names = new Set<string>();
  for (const file of sourceFiles(islandsDir)) {
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(/import\s*(type\s*)?\{([^}]*)\}\s*from\s*"@tanstack\/react-query"/g)) {
      if (match[1]) continue; // types only
      for (const part of match[2]!.split(",")) {
        const name = part
          .trim()
          .split(/\s+as\s+/)[0]!
          .trim();
        if (name && !name.startsWith("type ")) names.add(name);
      }
    }
  }
  return [...names].sort();
}

/** The entry module of the vendor file: each library's exports once (React's and React DOM's share no name but version). */
async function vendorEntrySource(islandsDir: string): Promise<string> {
  const exported = new Set<string>(["default"]);
  const lines = ['export { default } from "react";'];
  const reexport = (specifier: string, names: string[]) => {
    const fresh = names.filter((name) => name !== "default" && !exported.has(name));
    for (const name of fresh) exported.add(name);
    if (fresh.length) lines.push(`export { ${fresh.join(", ")} } from ${JSON.stringify(specifier)};`);
  };
  for (const specifier of ["react", "react/jsx-runtime", "react-dom", "react-dom/client"])
    reexport(specifier, Object.keys(await import(specifier)));
  reexport("@tanstack/react-query", queryNamesUsed(islandsDir));
  return `${lines.join("\n")}\n`;
}

/** How many minified vendor files are kept for builds to come (others' libraries, an older lock file...). */
const MINIFIED_KEPT = 4;

/**
 * Builds the vendor file into outDir (its name carries its content's hash) and answers its name
 * and the plugin that makes the islands' build import it for the vendor libraries.
 */
export async function buildVendor(options: {
  root: string;
  outDir: string;
  entriesDir: string;
}): Promise<{ file: string; bytes: Uint8Array<ArrayBuffer>; plugin: BunPlugin }> {
  const entry = join(options.entriesDir, "vendor.ts");
  writeWhole(entry, await vendorEntrySource(join(options.root, "islands")));
  // Built in memory and named by its bytes' hash: the bundler's own [hash] also covers the
  // entry's path, and the file must keep its name (and browsers' cached copy) for as long as the
  // libraries do not change.
  const result = await Bun.build({
    entrypoints: [entry],
    target: "browser",
    format: "esm",
    minify: true,
    sourcemap: "none",
    define: { "process.env.NODE_ENV": JSON.stringify("production") },
  });
  if (!result.success || result.outputs.length !== 1) {
    for (const log of result.logs) console.error(log);
    throw new Error("Vendor build failed");
  }
  // Terser finds what Bun's minifier leaves in React DOM (client-terser.ts).
  const cacheDir = join(options.root, "build/vendor-minified");
  const { bytes, cacheFile } = await terserMinified(new Uint8Array(await result.outputs[0]!.arrayBuffer()), cacheDir);
  pruneTerserCache(cacheDir, new Set([cacheFile]), MINIFIED_KEPT - 1);
  const file = `vendor-${new Bun.CryptoHasher("sha256").update(bytes).digest("hex").slice(0, 10)}.js`;
  writeFileSync(join(options.outDir, file), bytes);
  const plugin: BunPlugin = {
    name: "engram-vendor",
    setup(build) {
      // Every output file is in the same folder, so one relative path serves them all.
      build.onResolve({ filter: VENDOR_FILTER }, () => ({ path: `./${file}`, external: true }));
    },
  };
  return { file, bytes, plugin };
}
