import { useEffect } from "react";
import { hasReports, hasWaitingAnswers } from "../lib/offline/waiting-flag";
import { offlineRecall } from "./recall-api";

/** How often answers still waiting are tried again while the page is open and the browser says it is online. */
export const SYNC_RETRY_MS = 30_000;

/**
 * The offline side of the recall page: opens the account's device copy when answers or reports
 * wait on it (or the browser is offline), sends the answers that wait whenever the network comes
 * back (and every 30 s while some wait), and notes when the browser goes offline.
 */
export function useOfflineRecall(owner: string) {
  useEffect(() => {
    if (!owner) return;
    const sync = () => void offlineRecall().then((offline) => offline.syncNow());
    // Gone offline: the device copy is opened now, if it was not (answers given from here wait on it).
    const wentOffline = () =>
      void offlineRecall().then((offline) => {
        offline.setOffline(true);
        return offline.startOfflineRecall(owner);
      });
    // Nothing for the offline part to do yet: its code comes when it has something (on use).
    if (hasWaitingAnswers(owner) || hasReports(owner) || !navigator.onLine)
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
