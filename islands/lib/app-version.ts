import { pageConfig } from "./page-config";
import { showToast } from "./ui-store";

const VERSION_KEY = "engram.version";
export const UPDATED_MESSAGE = "Engram was updated";

/** The first page of a new version says so, once (the service worker has replaced what it kept of the last one). */
export function noteNewVersion() {
  const { version } = pageConfig();
  try {
    const seen = localStorage.getItem(VERSION_KEY);
    if (!version || seen === version) return;
    localStorage.setItem(VERSION_KEY, version);
    if (seen) showToast(UPDATED_MESSAGE, "info");
  } catch {
    // No storage: no note.
  }
}
