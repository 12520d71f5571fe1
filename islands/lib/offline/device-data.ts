/**
 * Signing out clears what this device kept for the account: the recall copy and its queue
 * (IndexedDB), the recall session, and the pages the service worker kept. Answers that have not
 * reached the server are sent first when the network allows; if some still wait, the learner is
 * asked before they are deleted (nothing typed is lost without asking).
 */
import { confirmPopup } from "../ui-store";
import { deleteOfflineDb, openOfflineDb, waitingCount } from "./offline-store";
import { sendAnswers, syncQueue } from "./sync-queue";
import { hasWaitingAnswers, setWaitingFlag } from "./waiting-flag";

export async function clearDeviceData(owner: string): Promise<boolean> {
  if (hasWaitingAnswers(owner)) {
    const db = await openOfflineDb(owner);
    if (navigator.onLine) await syncQueue(owner, db, sendAnswers);
    const waiting = await waitingCount(db);
    if (
      waiting > 0 &&
      !(await confirmPopup(
        `${waiting === 1 ? "1 answer" : `${waiting} answers`} given offline have not reached the server yet. Signing out deletes them from this device. Sign out anyway?`,
      ))
    ) {
      return false;
    }
  }
  await deleteOfflineDb(owner);
  setWaitingFlag(owner, false);
  try {
    // This tab's recall session of the account (islands/recall/recall-session.ts).
    sessionStorage.removeItem(`engram.recall-session.${owner}`);
  } catch {
    // No storage: nothing kept there.
  }
  navigator.serviceWorker?.controller?.postMessage({ type: "forget" });
  if (typeof caches !== "undefined") {
    for (const name of await caches.keys()) if (name.startsWith("engram-pages-") || name === "engram-state") await caches.delete(name);
  }
  return true;
}
