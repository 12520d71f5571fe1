/**
 * Whether answers given offline wait on this device for an account: a flag beside the queue,
 * read without opening IndexedDB (the recall page syncs before it loads its list when set).
 */
/** A yes/no kept per account in localStorage; a browser without storage reads no and keeps nothing. */
function deviceFlag(prefix: string) {
  const key = (owner: string) => `${prefix}.${owner}`;
  return {
    read(owner: string): boolean {
      try {
        return localStorage.getItem(key(owner)) === "1";
      } catch {
        return false;
      }
    },
    write(owner: string, on: boolean) {
      try {
        if (on) localStorage.setItem(key(owner), "1");
        else localStorage.removeItem(key(owner));
      } catch {
        // No storage: the page syncs on load and when the network returns; reports show when the offline part starts.
      }
    },
  };
}

const waiting = deviceFlag("engram.offline.waiting");
/** Whether answers the server could not count wait to be shown on this device (read without IndexedDB too). */
const reports = deviceFlag("engram.offline.reports");

export const hasWaitingAnswers = waiting.read;
export const setWaitingFlag = waiting.write;
export const hasReports = reports.read;
export const setReportsFlag = reports.write;

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
