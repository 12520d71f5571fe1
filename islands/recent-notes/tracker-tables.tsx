import { type UseQueryResult, useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { LocalTime } from "../lib/dates";
import { type MemoryTrackerJson, recentlyLearnedQuery, recentlyReviewedQuery } from "../lib/learning-queries";
import { noteTitleText } from "../lib/note-title";
import { notePath } from "../lib/notes-queries";

function TrackerNote({ tracker }: { tracker: MemoryTrackerJson }) {
  return (
    <>
      <a className="recent-item-title" dir="auto" href={notePath(tracker.note.id)}>
        {noteTitleText(tracker.note.noteTopology)}
      </a>
      {tracker.spelling && <span className="muted"> (spelling)</span>}
    </>
  );
}

function Status({ tracker }: { tracker: MemoryTrackerJson }) {
  return tracker.removedFromTracking ? <s className="tracker-removed">Removed</s> : <span className="tracker-active">Active</span>;
}

/** The table of one tab: a loading line, an error, an empty state, or the rows. */
function TrackerTable({
  label,
  query,
  empty,
  columns,
  row,
}: {
  label: string;
  query: UseQueryResult<MemoryTrackerJson[]>;
  empty: string;
  columns: string[];
  row: (tracker: MemoryTrackerJson) => ReactNode[];
}) {
  if (query.isPending) return <p className="muted">Loading...</p>;
  if (query.isError)
    return (
      <p className="field-error" role="alert">
        This list could not be loaded.
      </p>
    );
  if (query.data.length === 0) return <p className="empty-state">{empty}</p>;
  return (
    <div className="table-scroll">
      <table className="table recent-trackers" aria-label={label}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {query.data.map((tracker) => (
            <tr key={tracker.id} className={tracker.removedFromTracking ? "removed-tracker" : undefined}>
              {row(tracker).map((cell, index) => (
                <td key={columns[index]} data-label={columns[index]}>
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** "Recently Learned": trackers by assimilation time, removed ones struck through. Fetched when the tab first opens. */
export function RecentlyLearned() {
  return (
    <TrackerTable
      label="Recently Learned"
      query={useQuery(recentlyLearnedQuery())}
      empty="Nothing learned yet."
      columns={["Note", "Assimilated", "Status"]}
      row={(tracker) => [<TrackerNote tracker={tracker} />, <LocalTime iso={tracker.assimilatedAt} />, <Status tracker={tracker} />]}
    />
  );
}

/** "Recently Reviewed": trackers by last recall time, with their schedule. */
export function RecentlyReviewed() {
  return (
    <TrackerTable
      label="Recently Reviewed"
      query={useQuery(recentlyReviewedQuery())}
      empty="Nothing reviewed yet."
      columns={["Note", "Initial Recall", "Next Recall", "Recall Count", "Curve Index", "Status"]}
      row={(tracker) => [
        <TrackerNote tracker={tracker} />,
        <LocalTime iso={tracker.assimilatedAt} />,
        <LocalTime iso={tracker.nextRecallAt} />,
        tracker.repetitionCount,
        tracker.forgettingCurveIndex,
        <Status tracker={tracker} />,
      ]}
    />
  );
}
