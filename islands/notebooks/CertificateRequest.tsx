import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, call } from "../lib/api";
import { currentUserInfoQuery } from "../lib/queries";

const approvalQuery = (notebookId: number) => ({
  queryKey: ["certificate-approval", notebookId],
  queryFn: () => call(api.notebook_certificate_approvals["for-notebook"]({ notebook: notebookId }).get(), { silent: true }),
});

/**
 * The certificate request button of the notebook settings (spec 4): "Send Request" without a
 * request, "Approval Pending" while an admin has not approved it, "Certificate Request Approved" after.
 */
export function CertificateRequest({ notebookId, creatorId }: { notebookId: number; creatorId?: string }) {
  const queryClient = useQueryClient();
  const { data: me } = useQuery(currentUserInfoQuery());
  const { data: approval, isPending } = useQuery(approvalQuery(notebookId));
  const [sending, setSending] = useState(false);
  async function send() {
    setSending(true);
    try {
      const sent = await call(api.notebook_certificate_approvals["request-approval"]({ notebook: notebookId }).post());
      queryClient.setQueryData(approvalQuery(notebookId).queryKey, sent);
    } finally {
      setSending(false);
    }
  }
  if (!creatorId || me?.externalIdentifier !== creatorId) return null; // only the creator asks (and only they get creatorId)
  const label = !approval ? "Send Request" : approval.lastApprovalTime ? "Certificate Request Approved" : "Approval Pending";
  return (
    <section className="certificate-request" aria-label="Certification">
      <h3>Certification</h3>
      <p className="muted">An administrator can make this notebook certifiable: passing its assessment then gives a certificate.</p>
      <button type="button" className="button" disabled={isPending || sending || Boolean(approval)} onClick={() => void send()}>
        {label}
      </button>
    </section>
  );
}
