/**
 * Whether answers given offline wait on this device for an account: a flag beside the queue,
 * read without opening IndexedDB (the recall page syncs before it loads its list when set).
 */
export const waitingFlagKey = (owner: string) => `engram.offline.waiting.${owner}`;

export function hasWaitingAnswers(owner: string): boolean {
  try {
    return localStorage.getItem(waitingFlagKey(owner)) === "1";
  } catch {
    return false;
  }
}

export function setWaitingFlag(owner: string, waiting: boolean) {
  try {
    if (waiting) localStorage.setItem(waitingFlagKey(owner), "1");
    else localStorage.removeItem(waitingFlagKey(owner));
  } catch {
    // No storage: the page syncs on load and when the network returns.
  }
}

/** Whether answers the server could not count wait to be shown on this device (read without IndexedDB too). */
export const reportsFlagKey = (owner: string) => `engram.offline.reports.${owner}`;

export function hasReports(owner: string): boolean {
  try {
    return localStorage.getItem(reportsFlagKey(owner)) === "1";
  } catch {
    return false;
  }
}

export function setReportsFlag(owner: string, reports: boolean) {
  try {
    if (reports) localStorage.setItem(reportsFlagKey(owner), "1");
    else localStorage.removeItem(reportsFlagKey(owner));
  } catch {
    // No storage: reports show whenever the offline part is started.
  }
}

/** The IndexedDB database that holds an account's recall copy and answer queue on this device. */
export const databaseName = (owner: string) => `engram-offline-${owner}`;

/**
 * Signing out with nothing waiting: what the device kept for the account goes at once, without
 * loading the offline code (the deletion finishes in the browser after the page has gone).
 */
export function forgetDevice(owner: string) {
  try {
    indexedDB.deleteDatabase(databaseName(owner));
    sessionStorage.removeItem(`engram.recall-session.${owner}`);
  } catch {
    // Storage the browser refuses holds nothing.
  }
  setWaitingFlag(owner, false);
  setReportsFlag(owner, false);
  // The service worker forgets the pages it kept (and so does the signed-out page that follows).
  navigator.serviceWorker?.controller?.postMessage({ type: "forget" });
}
