import { Elysia, t } from "elysia";
import type { AppContext } from "../context";
import { approvalForNotebook, approve, pendingApprovals, requestApproval } from "../services/assessments/approvals";
import { certificateOf, claimCertificate } from "../services/assessments/certificates";
import { requireUser } from "./authentication";
import { core } from "./core";
import { IdParam } from "./ids";
import { Certificate, NotebookCertificateApproval } from "./schemas/admin";

const notebookParams = t.Object({ notebook: IdParam });

/** /api/certificate and /api/notebook_certificate_approvals: certificates and the approval of certifiable notebooks. */
export function certificatesApi(ctx: AppContext) {
  return (
    new Elysia({ prefix: "/api" })
      .use(core(ctx))
      .get("/certificate/:notebook", ({ auth, params }) => certificateOf(ctx, requireUser(auth), params.notebook), {
        access: "signed-in",
        response: Certificate,
        params: notebookParams,
      })
      .post("/certificate/:notebook", ({ auth, params }) => claimCertificate(ctx, requireUser(auth), params.notebook), {
        access: "signed-in",
        response: Certificate,
        params: notebookParams,
      })
      .post(
        "/notebook_certificate_approvals/request-approval/:notebook",
        ({ auth, params }) => requestApproval(ctx, requireUser(auth), params.notebook),
        { access: "signed-in", response: NotebookCertificateApproval, params: notebookParams },
      )
      // An empty body when the notebook has no request yet.
      .get(
        "/notebook_certificate_approvals/for-notebook/:notebook",
        ({ auth, params }) => approvalForNotebook(ctx, requireUser(auth), params.notebook),
        { access: "signed-in", response: t.Union([NotebookCertificateApproval, t.Null()]), params: notebookParams },
      )
      .get("/notebook_certificate_approvals/get-all-pending-request", ({ auth }) => pendingApprovals(ctx, requireUser(auth)), {
        access: "admin",
        response: t.Array(NotebookCertificateApproval),
      })
      .post(
        "/notebook_certificate_approvals/:notebookCertificateApproval/approve",
        ({ auth, params }) => approve(ctx, requireUser(auth), params.notebookCertificateApproval),
        { access: "admin", response: NotebookCertificateApproval, params: t.Object({ notebookCertificateApproval: IdParam }) },
      )
  );
}
