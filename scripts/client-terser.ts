/**
 * Terser over what Bun's minifier wrote: it finds more (React DOM's vendor file: 1.1 KB of 68
 * compressed; the islands' own files: about 3% of theirs), and those bytes are on every page's
 * first load (docs/architecture.md, "What a page loads first"). Terser takes seconds on the whole
 * client, so each result is kept in a cache folder under the hash of the bytes it was made from:
 * a build minifies again only the files whose bytes changed.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { minify } from "terser";
import terserPackage from "terser/package.json";
import { writeWhole } from "./write-whole";

/** A cached result's file name: the input's hash and Terser's version. */
function cacheName(bytes: Uint8Array): string {
  return `${new Bun.CryptoHasher("sha256").update(bytes).update(terserPackage.version).digest("hex").slice(0, 16)}.js`;
}

/** `bytes` (an ES module) minified by Terser, from `cacheDir` when these bytes were minified before. */
export async function terserMinified(bytes: Uint8Array, cacheDir: string): Promise<{ bytes: Uint8Array<ArrayBuffer>; cacheFile: string }> {
  const cacheFile = cacheName(bytes);
  const cached = join(cacheDir, cacheFile);
  try {
    return { bytes: new Uint8Array(readFileSync(cached)), cacheFile };
  } catch {
    // Not cached yet (or pruned meanwhile by another build): minify.
  }
  const { code } = await minify(new TextDecoder().decode(bytes), {
    module: true,
    compress: { passes: 2 },
    mangle: true,
    format: { comments: false },
  });
  if (code === undefined) throw new Error("Terser answered no code");
  mkdirSync(cacheDir, { recursive: true });
  writeWhole(cached, code);
  return { bytes: new TextEncoder().encode(code), cacheFile };
}

/** Removes a cache folder's results but the `kept` names and the `newest` most recently written. */
export function pruneTerserCache(cacheDir: string, kept: Set<string>, newest = 0) {
  let names: string[];
  try {
    names = readdirSync(cacheDir).filter((name) => name.endsWith(".js"));
  } catch {
    return;
  }
  const byAge = names
    .filter((name) => !kept.has(name))
    .map((name) => ({ name, time: statSync(join(cacheDir, name), { throwIfNoEntry: false })?.mtimeMs ?? 0 }))
    .sort((a, b) => b.time - a.time);
  for (const old of byAge.slice(newest)) rmSync(join(cacheDir, old.name), { force: true });
}
