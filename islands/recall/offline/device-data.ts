/**
 * Signing out clears what this device kept for the account: the recall copy and its queue
 * (IndexedDB), the recall session, and the pages the service worker kept. Answers that have not
 * reached the server are sent first when the network allows; if some still wait, the learner is
 * asked before they are deleted (nothing typed is lost without asking).
 */
import { confirmPopup } from "../../lib/ui-store";
import { forgetSession } from "../recall-session";
import { hasWaitingAnswers, waitingFlagKey } from "../use-offline-recall";
import { startOfflineRecall, syncNow } from "./offline-recall";
import { deleteOfflineDb, openOfflineDb, waitingCount } from "./offline-store";

export async function clearDeviceData(owner: string): Promise<boolean> {
  if (hasWaitingAnswers(owner)) {
    await startOfflineRecall(owner);
    if (navigator.onLine) await syncNow();
    const waiting = await waitingCount(await openOfflineDb(owner));
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
  forgetSession(owner);
  try {
    localStorage.removeItem(waitingFlagKey(owner));
  } catch {
    // No storage: nothing kept there.
  }
  navigator.serviceWorker?.controller?.postMessage({ type: "forget" });
  if (typeof caches !== "undefined") {
    for (const name of await caches.keys()) if (name.startsWith("engram-pages-") || name === "engram-state") await caches.delete(name);
  }
  return true;
}
