import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, call } from "../lib/api";
import { confirmPopup, showToast } from "../lib/ui-store";
import { dateTimeText } from "./format";

const failureReportsQuery = { queryKey: ["admin", "failure-reports"], queryFn: () => call(api["failure-reports"].get()) };

/** "Failure Reports": newest first, a checkbox each, "Delete Selected" once something is selected. */
export function FailureReportsTab() {
  const queryClient = useQueryClient();
  const { data: reports, isPending } = useQuery(failureReportsQuery);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [deleting, setDeleting] = useState(false);

  async function deleteSelected() {
    if (!(await confirmPopup(`Delete ${selected.size} failure report${selected.size === 1 ? "" : "s"}?`))) return;
    setDeleting(true);
    try {
      await call(api["failure-reports"].delete.delete({ ids: [...selected] }), { silent: true });
      setSelected(new Set());
      await queryClient.invalidateQueries({ queryKey: failureReportsQuery.queryKey });
    } catch {
      showToast("Error deleting failure reports.", "error");
    } finally {
      setDeleting(false);
    }
  }

  if (isPending) return <p className="muted">Loading failure reports...</p>;
  if (!reports || reports.length === 0) return <p className="empty-state">No failure reports found.</p>;
  const toggle = (id: number, on: boolean) =>
    setSelected((old) => {
      const next = new Set(old);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  return (
    <div className="admin-failure-reports">
      {selected.size > 0 && (
        <div className="admin-toolbar">
          <button type="button" className="button danger" disabled={deleting} onClick={() => void deleteSelected()}>
            Delete Selected
          </button>
        </div>
      )}
      <ul className="admin-list">
        {reports.map((report) => {
          const label = `${report.errorName} ${dateTimeText(report.createDatetime)}`;
          return (
            <li key={report.id} className="admin-list-item">
              <input
                type="checkbox"
                aria-label={label}
                checked={selected.has(report.id)}
                onChange={(event) => toggle(report.id, event.target.checked)}
              />
              <a href={`/d/failure-report-list/show/${report.id}`} className="admin-list-title">
                {report.errorName}
              </a>
              <span className="muted">{dateTimeText(report.createDatetime)}</span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
