import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { assetVersion } from "./asset-version";
import { negotiateEncoding } from "./compression";

/** What scripts/build-client.ts produced: hashed URLs of the stylesheet and of each island's entry. */
export interface AssetManifest {
  css: string;
  /** KaTeX's stylesheet, for pages that show math. */
  mathCss?: string;
  /** The early-click catcher, run from the head before any island (islands/runtime/early-clicks.ts). */
  early: string;
  islands: Record<string, string>;
  /** URL path → file (on disk, or inside the single binary). */
  files: Record<string, string>;
  version?: string;
}

let embedded: AssetManifest | undefined;

/** The single binary registers its embedded files here before the server starts. */
export function useEmbeddedAssets(manifest: AssetManifest) {
  embedded = manifest;
}

const BUILD_DIR = join(import.meta.dir, "../../build/client");

/** This build's version (web/asset-version.ts), computed once from the manifest. */
export function assetVersionOf(manifest: AssetManifest): string {
  manifest.version ??= assetVersion(manifest.files);
  return manifest.version;
}

export function loadAssetManifest(): AssetManifest {
  if (embedded) return embedded;
  const file = join(BUILD_DIR, "manifest.json");
  if (!existsSync(file)) {
    throw new Error("The client bundle is missing: run `bun scripts/build-client.ts` (npm start does this)");
  }
  const manifest = JSON.parse(readFileSync(file, "utf8")) as AssetManifest;
  const files: Record<string, string> = {};
  for (const [url, name] of Object.entries(manifest.files)) files[url] = join(BUILD_DIR, name);
  return { ...manifest, files };
}

const CONTENT_TYPES: Record<string, string> = {
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  svg: "image/svg+xml",
  png: "image/png",
  woff2: "font/woff2",
  map: "application/json",
};

/**
 * A hashed asset: cached for a year, never revalidated. Text assets go out as their .br or .gz
 * twin written at build (scripts/build-client.ts) when the browser accepts that encoding.
 */
export function assetResponse(manifest: AssetManifest, urlPath: string, acceptEncoding?: string | null): Response | undefined {
  // The twins are only reached through their asset's URL, with the right Content-Encoding.
  if (urlPath.endsWith(".br") || urlPath.endsWith(".gz")) return undefined;
  const file = manifest.files[urlPath];
  if (!file) return undefined;
  const extension = urlPath.slice(urlPath.lastIndexOf(".") + 1);
  const headers: Record<string, string> = {
    "content-type": CONTENT_TYPES[extension] ?? "application/octet-stream",
    "cache-control": "public, max-age=31536000, immutable",
  };
  const encoding = negotiateEncoding(acceptEncoding);
  const twin = encoding && manifest.files[urlPath + (encoding === "br" ? ".br" : ".gz")];
  const hasTwins = manifest.files[`${urlPath}.gz`] !== undefined;
  if (hasTwins) headers.vary = "accept-encoding";
  if (twin) {
    headers["content-encoding"] = encoding;
    return new Response(Bun.file(twin), { headers });
  }
  return new Response(Bun.file(file), { headers });
}
