/** Where the service worker is served: the site root, so that its scope is the whole site. */
export const SERVICE_WORKER_URL = "/sw.js";

/**
 * A build's version: a hash of its asset URLs (each named by its content's hash), so any change
 * of the client gives a new one. The service worker's caches are named by it, and pages tell it
 * to the browser (the "Engram was updated" note).
 */
export function assetVersion(files: Record<string, string>): string {
  const urls = Object.keys(files)
    .filter((url) => url !== SERVICE_WORKER_URL)
    .sort()
    .join("\n");
  return new Bun.CryptoHasher("sha256").update(urls).digest("hex").slice(0, 12);
}
