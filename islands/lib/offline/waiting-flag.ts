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
