import { useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../lib/api";
import type { NotebookCertificateApprovalJson } from "../lib/assessment/queries";
import { notePath } from "../lib/notes-queries";

const pendingQuery = {
  queryKey: ["admin", "certification-requests"],
  queryFn: () => api.get<NotebookCertificateApprovalJson[]>("/api/notebook_certificate_approvals/get-all-pending-request"),
};

/** "Certification Requests": notebooks whose creators asked to make them certifiable, with "Approve". */
export function CertificationTab() {
  const queryClient = useQueryClient();
  const { data: pending, isPending } = useQuery(pendingQuery);
  async function approve(request: NotebookCertificateApprovalJson) {
    await api.post(`/api/notebook_certificate_approvals/${request.id}/approve`);
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
          <span className="muted">by {request.notebook.creatorId}</span>
          <button type="button" className="button small primary" onClick={() => void approve(request)}>
            Approve
          </button>
        </li>
      ))}
    </ul>
  );
}
