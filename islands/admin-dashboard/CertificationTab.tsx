import { useQuery, useQueryClient } from "@tanstack/react-query";
import { api, call } from "../lib/api";
import type { NotebookCertificateApprovalJson } from "../lib/assessment/queries";
import { notePath } from "../lib/notes-queries";

const pendingQuery = {
  queryKey: ["admin", "certification-requests"],
  queryFn: () => call(api.notebook_certificate_approvals["get-all-pending-request"].get()),
};

/** "Certification Requests": notebooks whose creators asked to make them certifiable, with "Approve". */
export function CertificationTab() {
  const queryClient = useQueryClient();
  const { data: pending, isPending } = useQuery(pendingQuery);
  async function approve(request: NotebookCertificateApprovalJson) {
    await call(api.notebook_certificate_approvals({ notebookCertificateApproval: request.id }).approve.post());
    await queryClient.invalidateQueries({ queryKey: pendingQuery.queryKey });
  }
  if (isPending) return <p className="muted">Loading requests...</p>;
  if (!pending || pending.length === 0) return <p className="empty-state">No certification request found.</p>;
  return (
    <ul className="admin-list">
      {pending.map((request) => (
        <li key={request.id} className="admin-list-item">
          <a href={notePath(request.notebook.headNoteId)} className="admin-list-title" dir="auto">
            {request.notebook.title}
          </a>
          <span className="muted">by {request.notebook.creatorName}</span>
          <button type="button" className="button small primary" onClick={() => void approve(request)}>
            Approve
          </button>
        </li>
      ))}
    </ul>
  );
}
