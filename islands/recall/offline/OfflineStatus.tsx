import { useSyncExternalStore } from "react";
import type { SyncReport } from "../../lib/offline/offline-store";
import { dismissReports, offlineStatus, subscribeOfflineStatus } from "./offline-recall";

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Why an answer given offline was not counted, in the learner's words. */
const REASONS: Record<SyncReport["status"], string> = {
  removed: "its note was removed from review or deleted meanwhile",
  "out-of-reach": "you can no longer recall this note (you left its circle or unsubscribed from its notebook)",
  reset: "it was learned anew after you answered",
  "answered-later": "it was reviewed again after this answer, on another device or tab",
  "too-old": "the answer is more than 30 days old",
  refused: "it does not fit this note's question any more",
};

const time = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: "short", timeStyle: "short" });

/**
 * The recall page's calm line about offline recall: answers waiting on this device (and that
 * they will sync), a sync in progress or done, questions skipped for want of the network, and
 * the answers the server could not count, each with why, until the learner dismisses them.
 */
export function OfflineStatus() {
  const status = useSyncExternalStore(subscribeOfflineStatus, offlineStatus, offlineStatus);
  const { offline, waiting, syncing, lastSynced, reports, skipped } = status;
  return (
    <div className="recall-offline">
      <div role="status" className="recall-offline-lines">
        {waiting > 0 && (
          <p className="recall-offline-waiting">
            <span className="recall-offline-dot" aria-hidden="true" />
            {plural(waiting, "answer", "answers")} saved on this device, will sync
            {syncing && <span className="muted"> (syncing…)</span>}
          </p>
        )}
        {waiting === 0 && offline && <p className="muted">Offline: your answers are saved on this device until the network is back.</p>}
        {waiting === 0 && !syncing && lastSynced > 0 && (
          <p className="recall-offline-synced">{plural(lastSynced, "answer", "answers")} given offline reached the server.</p>
        )}
        {skipped > 0 && (
          <p className="muted">
            {plural(skipped, "question needs", "questions need")} the AI, which was not reached before the network went: skipped for now.
          </p>
        )}
      </div>
      {reports.length > 0 && (
        <div className="alert warning recall-offline-reports" role="alert">
          <p>{plural(reports.length, "answer", "answers")} given offline could not be counted:</p>
          <ul>
            {reports.map((report) => (
              <li key={report.id ?? `${report.label}-${report.answeredAt}`}>
                <strong dir="auto">{report.label}</strong> (answered {time(report.answeredAt)}): {REASONS[report.status]}
                {report.status === "refused" && report.message ? ` (${report.message})` : ""}.
              </li>
            ))}
          </ul>
          <button type="button" className="button small" onClick={() => void dismissReports()}>
            OK
          </button>
        </div>
      )}
    </div>
  );
}
