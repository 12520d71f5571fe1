import { pageConfig } from "../lib/page-config";
import { showToast } from "../lib/ui-store";

const VERSION_KEY = "engram.version";
export const UPDATED_MESSAGE = "Engram was updated";

let started = false;

/**
 * Once per page (every island's entry calls it): registers the service worker (offline recall,
 * islands/service-worker/sw.ts) and tells it who is signed in, so that it keeps the recall page
 * for them and forgets pages kept for anyone else. The first page of a new version says
 * "Engram was updated".
 */
export function startServiceWorker() {
  if (started || typeof window === "undefined") return;
  started = true;
  const config = pageConfig();
  try {
    const seen = localStorage.getItem(VERSION_KEY);
    if (config.version && seen !== config.version) {
      localStorage.setItem(VERSION_KEY, config.version);
      if (seen) showToast(UPDATED_MESSAGE, "info");
    }
  } catch {
    // No storage: no note.
  }
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  navigator.serviceWorker
    .register("/sw.js", { scope: "/" })
    .then(() => navigator.serviceWorker.ready)
    .then((registration) => registration.active?.postMessage({ type: "page", user: config.user ?? null }))
    .catch(() => {
      // A browser that refuses (private mode, disabled): Engram works online as before.
    });
}
