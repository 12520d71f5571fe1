import { useEffect } from "react";
import { hasWaitingAnswers } from "../lib/offline/waiting-flag";
import { offlineRecall } from "./recall-api";

/** How often answers still waiting are tried again while the page is open and the browser says it is online. */
export const SYNC_RETRY_MS = 30_000;

/**
 * The offline side of the recall page: opens the account's device copy, sends the answers that
 * wait whenever the network comes back (and every 30 s while some wait), and notes when the
 * browser goes offline.
 */
export function useOfflineRecall(owner: string) {
  useEffect(() => {
    if (!owner) return;
    const sync = () => void offlineRecall().then((offline) => offline.syncNow());
    const wentOffline = () => void offlineRecall().then((offline) => offline.setOffline(true));
    void offlineRecall().then((offline) => offline.startOfflineRecall(owner));
    window.addEventListener("online", sync);
    window.addEventListener("offline", wentOffline);
    const timer = setInterval(() => {
      if (navigator.onLine && hasWaitingAnswers(owner)) sync();
    }, SYNC_RETRY_MS);
    return () => {
      window.removeEventListener("online", sync);
      window.removeEventListener("offline", wentOffline);
      clearInterval(timer);
    };
  }, [owner]);
}
