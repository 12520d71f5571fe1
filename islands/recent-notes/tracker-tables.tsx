import { type UseQueryResult, useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { LocalTime } from "../lib/dates";
import { type MemoryTrackerJson, recentlyLearnedQuery, recentlyReviewedQuery } from "../lib/learning-queries";
import { noteTitleText } from "../lib/note-title";
import { notePath } from "../lib/notes-queries";

function TrackerNote({ tracker }: { tracker: MemoryTrackerJson }) {
  return (
    <>
      {tracker.note.unreadable ? (
        // Kept for history: the note left the notebooks this learner may read.
        <span className="recent-item-title muted">{noteTitleText(tracker.note.noteTopology)}</span>
      ) : (
        <a className="recent-item-title" dir="auto" href={notePath(tracker.note.id)}>
          {noteTitleText(tracker.note.noteTopology)}
        </a>
      )}
      {tracker.spelling && <span className="muted"> (spelling)</span>}
    </>
  );
}

function Status({ tracker }: { tracker: MemoryTrackerJson }) {
  return tracker.removedFromTracking ? <s className="tracker-removed">Removed</s> : <span className="tracker-active">Active</span>;
}

/** A column of a tracker table: its heading (also each cell's label on narrow screens) and its cell. */
interface Column {
  label: string;
  cell: (tracker: MemoryTrackerJson) => ReactNode;
}

/** The table of one tab: a loading line, an error, an empty state, or the rows. */
function TrackerTable({
  label,
  query,
  empty,
  columns,
}: {
  label: string;
  query: UseQueryResult<MemoryTrackerJson[]>;
  empty: string;
  columns: Column[];
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
              <th key={column.label} scope="col">
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {query.data.map((tracker) => (
            <tr key={tracker.id} className={tracker.removedFromTracking ? "removed-tracker" : undefined}>
              {columns.map((column) => (
                <td key={column.label} data-label={column.label}>
                  {column.cell(tracker)}
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
      columns={[
        { label: "Note", cell: (tracker) => <TrackerNote tracker={tracker} /> },
        { label: "Assimilated", cell: (tracker) => <LocalTime iso={tracker.assimilatedAt} /> },
        { label: "Status", cell: (tracker) => <Status tracker={tracker} /> },
      ]}
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
      columns={[
        { label: "Note", cell: (tracker) => <TrackerNote tracker={tracker} /> },
        { label: "Initial Recall", cell: (tracker) => <LocalTime iso={tracker.assimilatedAt} /> },
        { label: "Next Recall", cell: (tracker) => <LocalTime iso={tracker.nextRecallAt} /> },
        { label: "Recall Count", cell: (tracker) => tracker.repetitionCount },
        { label: "Curve Index", cell: (tracker) => tracker.forgettingCurveIndex },
        { label: "Status", cell: (tracker) => <Status tracker={tracker} /> },
      ]}
    />
  );
}
