import type { PageConfig } from "../lib/page-config";

let started = false;

/**
 * Once per page (every island's entry calls it): registers the service worker (offline recall,
 * islands/service-worker/sw.ts) and tells it who is signed in, so that it keeps the recall page
 * for them and forgets pages kept for anyone else.
 */
export function startServiceWorker() {
  if (started || typeof window === "undefined") return;
  started = true;
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  let user: string | null = null;
  try {
    user = (JSON.parse(document.getElementById("engram-config")?.textContent || "{}") as PageConfig).user ?? null;
  } catch {
    // No configuration: nobody is signed in as far as the worker knows.
  }
  navigator.serviceWorker
    .register("/sw.js", { scope: "/" })
    .then(() => navigator.serviceWorker.ready)
    .then((registration) => registration.active?.postMessage({ type: "page", user }))
    .catch(() => {
      // A browser that refuses (private mode, disabled): Engram works online as before.
    });
}
