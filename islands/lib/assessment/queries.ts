import { queryOptions } from "@tanstack/react-query";
import { api, call } from "../api";

export type { NotebookCertificateApprovalJson } from "../../../src/services/assessments/approvals";
export type { AssessmentAttemptJson, AssessmentQuestionInstanceJson } from "../../../src/services/assessments/assessment-service";
export type { CertificateJson } from "../../../src/services/assessments/certificates";

/** The user's attempts (the history page), prefetched by the page under the same key. */
export const assessmentHistoryQuery = () => queryOptions({ queryKey: ["assessment-history"], queryFn: () => call(api.assessment.get()) });

export const certificateQuery = (notebookId: number) =>
  queryOptions({ queryKey: ["certificate", notebookId], queryFn: () => call(api.certificate({ notebook: notebookId }).get()) });

/** A date as YYYY-MM-DD (its UTC day), as certificates show them. */
export const utcDay = (iso: string) => iso.slice(0, 10);
