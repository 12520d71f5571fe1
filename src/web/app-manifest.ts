/**
 * What makes Engram installable: the web app manifest (name, icons at 192 and 512 px, "any" and
 * "maskable", standalone display starting at Recall, which works offline), its icons, and the
 * service worker at the site root (built by scripts/build-client.ts, islands/service-worker/).
 */
import icon192 from "../../assets/icons/engram-192.png" with { type: "file" };
import icon512 from "../../assets/icons/engram-512.png" with { type: "file" };
import maskable192 from "../../assets/icons/engram-maskable-192.png" with { type: "file" };
import maskable512 from "../../assets/icons/engram-maskable-512.png" with { type: "file" };
import { SERVICE_WORKER_URL } from "./asset-version";
import { type AssetManifest, loadAssetManifest } from "./assets";

export const MANIFEST_URL = "/manifest.webmanifest";
export const THEME_COLOR = "#4f46e5";
export const BACKGROUND_COLOR = "#f6f7fb";

const ICONS: Record<string, string> = {
  "/icons/engram-192.png": icon192,
  "/icons/engram-512.png": icon512,
  "/icons/engram-maskable-192.png": maskable192,
  "/icons/engram-maskable-512.png": maskable512,
};

export const appManifest = {
  id: "/",
  name: "Engram",
  short_name: "Engram",
  description: "Keep notes, assimilate them and recall them on a forgetting-curve schedule, also offline.",
  start_url: "/d/recall",
  scope: "/",
  display: "standalone",
  orientation: "any",
  theme_color: THEME_COLOR,
  background_color: BACKGROUND_COLOR,
  icons: [
    { src: "/icons/engram-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
    { src: "/icons/engram-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
    { src: "/icons/engram-maskable-192.png", sizes: "192x192", type: "image/png", purpose: "maskable" },
    { src: "/icons/engram-maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
  ],
};

export function manifestResponse(): Response {
  return new Response(JSON.stringify(appManifest), {
    headers: { "content-type": "application/manifest+json", "cache-control": "public, max-age=3600" },
  });
}

export function iconResponse(path: string): Response | undefined {
  const file = ICONS[path];
  if (!file) return undefined;
  return new Response(Bun.file(file), { headers: { "content-type": "image/png", "cache-control": "public, max-age=86400" } });
}

/**
 * The service worker of this build. Never cached by HTTP (browsers check it on every navigation
 * anyway): a new deployment must be seen at once. Its scope is the site, as it is at the root.
 */
export function serviceWorkerResponse(manifest: AssetManifest = loadAssetManifest()): Response | undefined {
  const file = manifest.files[SERVICE_WORKER_URL];
  if (!file) return undefined;
  return new Response(Bun.file(file), {
    headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-cache", "service-worker-allowed": "/" },
  });
}
