/**
 * Builds the browser bundle into build/client: one entry per island (islands/<name>/index.tsx),
 * shared code split into chunks, every file named by its content hash, plus the stylesheet,
 * and a manifest.json the server reads to link them.
 *
 * Several Engram processes may start from one installation (docs/architecture.md): each build
 * goes to a folder of its own and build/client, a link, is swung to it in one rename, so a running
 * server never sees a half-written or missing bundle, and the command line skips the build when its sources are unchanged.
 */
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join, relative } from "node:path";
import type { BunPlugin } from "bun";
import { assetVersion, SERVICE_WORKER_URL } from "../src/web/asset-version";
import { compressBytes } from "../src/web/compression";
import { pageSharedModules, sharedCodePlugin, sharedModules, shellSeeds } from "./client-shared";
import { pruneTerserCache, terserMinified } from "./client-terser";
import { buildVendor } from "./client-vendor";
import { writeWhole } from "./write-whole";

const root = join(import.meta.dir, "..");
const finalDir = join(root, "build/client");
/** This process's own staging folders, swapped into place when the build is complete. */
const outDir = join(root, `build/client-staging-${process.pid}`);
/**
 * The generated entry files, at one path for every build: the bundler's hashes cover an entry's
 * path, so a per-build folder renamed every island file at every build (and two builds at once
 * published bundles whose names differed). Written atomically (writeWhole) and kept.
 */
const entriesDir = join(root, "build/entries");
/** Terser's results for the islands' files, by the bytes Bun wrote (client-terser.ts). */
const islandsTerserCache = join(root, "build/islands-minified");

/** Everything the bundle is made from: what a start compares to decide whether to build again. */
const SOURCES = [
  "islands",
  "src",
  "assets",
  "scripts/build-client.ts",
  "scripts/client-vendor.ts",
  "scripts/client-shared.ts",
  "scripts/client-terser.ts",
  "package-lock.json",
];

function listFiles(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => listFiles(join(path, entry.name)));
}

/** A hash of the sources' paths and contents. */
export function sourceFingerprint(): string {
  const hasher = new Bun.CryptoHasher("sha256");
  for (const file of SOURCES.flatMap((source) => listFiles(join(root, source)))) {
    hasher.update(relative(root, file));
    hasher.update(readFileSync(file));
  }
  return hasher.digest("hex").slice(0, 16);
}

/** How long a replaced bundle stays on disk, for a server still answering from it. */
const KEEP_REPLACED_MS = 60_000;

/**
 * Publishes the finished staging folder: it becomes build/bundle-<pid>-<time>, and build/client,
 * a symbolic link, is pointed at it by renaming a new link over the old one — one atomic rename,
 * so build/client always names a whole bundle, whichever of several builds at once finishes last
 * (same sources give the same hashed files, so either bundle serves every process). Bundles
 * replaced more than a minute ago are removed.
 */
function publish() {
  const name = `bundle-${process.pid}-${Date.now()}`;
  renameSync(outDir, join(root, "build", name));
  const link = join(root, `build/client-link-${process.pid}`);
  rmSync(link, { force: true });
  symlinkSync(name, link);
  // A build/client from before bundles were linked is a folder: a rename cannot replace it.
  if (existsSync(finalDir) && !lstatSync(finalDir).isSymbolicLink()) rmSync(finalDir, { recursive: true, force: true });
  renameSync(link, finalDir);
  for (const entry of readdirSync(join(root, "build"))) {
    const path = join(root, "build", entry);
    if (!entry.startsWith("bundle-") || entry === readlinkSync(finalDir)) continue;
    if (Date.now() - statSync(path).mtimeMs > KEEP_REPLACED_MS) rmSync(path, { recursive: true, force: true });
  }
}

/** Stylesheets of libraries the islands use (Quill's bubble theme for the rich note editor). */
const VENDOR_CSS = ["node_modules/quill/dist/quill.bubble.css"];

const KATEX_DIST = "node_modules/katex/dist";

/**
 * KaTeX's stylesheet for pages that show math (the note page links it only then, islands load it
 * when they typeset math): katex-<hash>.css, its fonts as katex-<font>-<hash>.woff2 (every browser
 * we serve takes woff2, so the woff and ttf fallbacks are left out), all cached as hashed assets.
 */
function writeMathStylesheet(contents: Map<string, Uint8Array<ArrayBuffer>>, files: Record<string, string>): string {
  const hash = (bytes: Uint8Array | string) => new Bun.CryptoHasher("sha256").update(bytes).digest("hex").slice(0, 10);
  const css = readFileSync(join(root, KATEX_DIST, "katex.min.css"), "utf8").replace(
    /url\(fonts\/([\w-]+)\.woff2\) format\("woff2"\)(?:,url\(fonts\/[\w-]+\.woff\) format\("woff"\))?(?:,url\(fonts\/[\w-]+\.ttf\) format\("truetype"\))?/g,
    (_whole, font: string) => {
      const source = join(root, KATEX_DIST, "fonts", `${font}.woff2`);
      const name = `katex-${font}-${hash(readFileSync(source))}.woff2`;
      copyFileSync(source, join(outDir, name));
      files[`/assets/${name}`] = name;
      return `url(${name}) format("woff2")`;
    },
  );
  const name = `katex-${hash(css)}.css`;
  writeFileSync(join(outDir, name), css);
  contents.set(name, new TextEncoder().encode(css));
  files[`/assets/${name}`] = name;
  return `/assets/${name}`;
}

/**
 * The islands of the app shell (views/shell/AppShell.tsx), on nearly every page: built as one
 * script, which hydrates those of them the page has. Apart, they were seven small files and as
 * many chunks of what only they share, each compressed on its own.
 */
const SHELL_ISLANDS = ["account-menu", "menu-badge", "menu-drawer", "search-note", "shell-overlays", "undo-button"];
/** The shell's entry: a name no island folder has. */
const SHELL_ENTRY = "app-shell";

/**
 * Islands always on one page together, built as one script each set, named by the page (a name
 * no island folder has): apart, what only they share (the note's children list, for the note and
 * the tree) was a chunk of its own.
 */
const PAGE_ENTRIES: Record<string, string[]> = { "note-page": ["note-show", "note-tree"] };

/** Text assets worth precompressing (fonts and images are compressed already). */
const PRECOMPRESSED = /\.(js|css|svg|json|map)$/;

export function islandNames(): string[] {
  return readdirSync(join(root, "islands"), { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(root, "islands", d.name, "index.tsx")))
    .map((d) => d.name)
    .sort();
}

/** The hub through which every island imports the shell's shared code (client-shared.ts). */
const SHARED_HUB = join(entriesDir, "islands-shared.ts");

/**
 * The plugins of the islands' build: the vendor file's, and the one that keeps the code the app
 * shell's islands share with the others in one chunk (client-shared.ts).
 */
export function islandPlugins(vendorPlugin: BunPlugin): BunPlugin[] {
  const { seeds, own } = shellSeeds(root, SHELL_ISLANDS);
  const pages = Object.values(PAGE_ENTRIES).flatMap((islands) => pageSharedModules(root, islands, islandNames()));
  return [vendorPlugin, sharedCodePlugin(sharedModules([...seeds, ...pages], own), SHARED_HUB, writeWhole)];
}

/** The islands' build: every entry's module, shared code split into hashed chunks, minified for production. */
export function islandsBuild(entrypoints: string[], outdir: string, plugins: BunPlugin[]) {
  return {
    entrypoints,
    outdir,
    target: "browser",
    format: "esm",
    splitting: true,
    minify: true,
    // No modulepreload table: the bundler writes into every entry the names and imports of every
    // chunk its dynamic imports may load (about 1 to 2 KB compressed a page), to preload a lazy
    // part's chunks beside it. Without it a lazy part's chunks come one import level later, on first use.
    modulePreload: false,
    sourcemap: "none",
    naming: { entry: "[name]-[hash].[ext]", chunk: "chunk-[hash].[ext]", asset: "[name]-[hash].[ext]" },
    define: { "process.env.NODE_ENV": JSON.stringify("production") },
    plugins,
  } satisfies Bun.BuildConfig;
}

export async function buildClient() {
  try {
    return await buildInto();
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

async function buildInto() {
  const source = sourceFingerprint();
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  mkdirSync(entriesDir, { recursive: true });

  // One entry per island, except the app shell's and the pages' sets, which share one each (see SHELL_ISLANDS, PAGE_ENTRIES).
  const grouped = [...SHELL_ISLANDS, ...Object.values(PAGE_ENTRIES).flat()];
  const groups = [
    ...islandNames()
      .filter((name) => !grouped.includes(name))
      .map((name) => ({ entry: name, islands: [name] })),
    { entry: SHELL_ENTRY, islands: SHELL_ISLANDS },
    ...Object.entries(PAGE_ENTRIES).map(([entry, islands]) => ({ entry, islands })),
  ];
  const entrypoints = groups.map((group) => {
    const file = join(entriesDir, `${group.entry}.tsx`);
    writeWhole(
      file,
      `import { hydrateIslands } from "../../islands/runtime/hydrate.tsx";\n` +
        group.islands
          .map(
            (name, i) =>
              `import Island${i} from "../../islands/${name}/index.tsx";\nhydrateIslands(${JSON.stringify(name)}, Island${i});\n`,
          )
          .join(""),
    );
    return file;
  });
  // Entries of islands since grouped or removed (bundle-report.ts builds every entry there).
  for (const name of readdirSync(entriesDir))
    if (name.endsWith(".tsx") && !entrypoints.includes(join(entriesDir, name))) rmSync(join(entriesDir, name), { force: true });

  /** What was built, by file name: compressed from memory, not read back from the folder. */
  const contents = new Map<string, Uint8Array<ArrayBuffer>>();
  // React, React DOM and TanStack Query: one file of their own that every island imports (client-vendor.ts).
  const vendor = await buildVendor({ root, outDir, entriesDir });
  contents.set(vendor.file, vendor.bytes);
  const result = await Bun.build(islandsBuild(entrypoints, outDir, islandPlugins(vendor.plugin)));
  if (!result.success) {
    for (const log of result.logs) console.error(log);
    throw new Error("Client build failed");
  }

  // The early-click catcher (islands/runtime/early-clicks*.ts): a classic script of its own, run from
  // the head before any island, so it catches clicks made before the islands are live.
  const early = await Bun.build({
    entrypoints: [join(root, "islands/runtime/early-clicks-entry.ts")],
    outdir: outDir,
    target: "browser",
    format: "iife",
    minify: true,
    sourcemap: "none",
    naming: { entry: "[name]-[hash].[ext]" },
  });
  if (!early.success) {
    for (const log of early.logs) console.error(log);
    throw new Error("Client build failed");
  }

  const files: Record<string, string> = { [`/assets/${vendor.file}`]: vendor.file };
  const islands: Record<string, string> = {};
  let earlyScript = "";
  for (const output of early.outputs) {
    const name = output.path.slice(outDir.length + 1);
    contents.set(name, new Uint8Array(await output.arrayBuffer()));
    files[`/assets/${name}`] = name;
    earlyScript = `/assets/${name}`;
  }
  // Terser after Bun's minifier, as for the vendor file (client-terser.ts): the cache keeps this build's results only.
  const minifiedIslands = new Set<string>();
  for (const output of result.outputs) {
    const name = output.path.slice(outDir.length + 1);
    let bytes = new Uint8Array(await output.arrayBuffer());
    if (name.endsWith(".js")) {
      const minified = await terserMinified(bytes, islandsTerserCache);
      minifiedIslands.add(minified.cacheFile);
      bytes = minified.bytes;
      writeFileSync(output.path, bytes);
    }
    contents.set(name, bytes);
    files[`/assets/${name}`] = name;
    if (output.kind === "entry-point") {
      const entry = name.replace(/-[a-z0-9]+\.js$/, "");
      // A page links each island's script once per URL: the shell's islands all name one.
      for (const island of groups.find((group) => group.entry === entry)?.islands ?? []) islands[island] = `/assets/${name}`;
    }
  }

  pruneTerserCache(islandsTerserCache, minifiedIslands);

  // One stylesheet: assets/app.css first, then every other assets/*.css (one per feature) by name.
  const cssFiles = readdirSync(join(root, "assets"))
    .filter((f) => f.endsWith(".css"))
    .sort((a, b) => (a === "app.css" ? -1 : b === "app.css" ? 1 : a.localeCompare(b)));
  const cssPaths = [...VENDOR_CSS.map((f) => join(root, f)), ...cssFiles.map((f) => join(root, "assets", f))];
  const cssSource = cssPaths.map((f) => `/* ${f.slice(root.length + 1)} */\n${readFileSync(f, "utf8")}`).join("\n");
  const cssName = `app-${new Bun.CryptoHasher("sha256").update(cssSource).digest("hex").slice(0, 10)}.css`;
  writeFileSync(join(outDir, cssName), cssSource);
  contents.set(cssName, new TextEncoder().encode(cssSource));
  files[`/assets/${cssName}`] = cssName;

  const mathCss = writeMathStylesheet(contents, files);

  // Every text asset also as .br and .gz, compressed once at the highest level (web/assets.ts picks
  // by Accept-Encoding), so no request pays for compressing a bundle.
  for (const [url, name] of Object.entries(files)) {
    if (!PRECOMPRESSED.test(name)) continue;
    const bytes = contents.get(name) ?? new Uint8Array(readFileSync(join(outDir, name)));
    for (const [encoding, suffix] of [
      ["br", ".br"],
      ["gzip", ".gz"],
    ] as const) {
      writeFileSync(join(outDir, name + suffix), compressBytes(bytes, encoding, "static"));
      files[url + suffix] = name + suffix;
    }
  }

  // The service worker, served at /sw.js: its bytes carry this build's version, so a browser sees
  // a new deployment as a new worker, which replaces the caches of the last one.
  const version = assetVersion(files);
  const worker = await Bun.build({
    entrypoints: [join(root, "islands/service-worker/sw.ts")],
    target: "browser",
    format: "esm",
    minify: true,
    sourcemap: "none",
    define: { ENGRAM_ASSET_VERSION: JSON.stringify(version) },
  });
  if (!worker.success) {
    for (const log of worker.logs) console.error(log);
    throw new Error("Service worker build failed");
  }
  const workerName = `sw-${version}.js`;
  writeFileSync(join(outDir, workerName), await worker.outputs[0]!.text());
  files[SERVICE_WORKER_URL] = workerName;

  const manifest = { css: `/assets/${cssName}`, mathCss, early: earlyScript, islands, files, source };
  writeFileSync(join(outDir, "manifest.json"), JSON.stringify(manifest, null, 2));
  publish();
  return manifest;
}

/** The fingerprint of the sources build/client was made from, if there is one. */
function builtFrom(): string | undefined {
  try {
    return (JSON.parse(readFileSync(join(finalDir, "manifest.json"), "utf8")) as { source?: string }).source;
  } catch {
    return undefined;
  }
}

if (import.meta.main) {
  const started = performance.now();
  if (!process.argv.includes("--force") && builtFrom() === sourceFingerprint()) {
    console.log(`Client bundle up to date (checked in ${Math.round(performance.now() - started)} ms)`);
    process.exit(0);
  }
  const manifest = await buildClient();
  console.log(
    `Client bundle built: ${Object.keys(manifest.islands).length} islands, ${Object.keys(manifest.files).length} files in ${Math.round(performance.now() - started)} ms`,
  );
}
