import { Island } from "../Island";
import { PageHeading } from "./SimplePages";

/** /d/assessment/notebook/{id}: "Assessment For {notebook title}" and its questions, one at a time. */
export function AssessmentPage({ title, notebookId }: { title: string; notebookId: number }) {
  return (
    <>
      <PageHeading title={title} />
      <Island name="assessment" props={{ notebookId }} />
    </>
  );
}

/** /d/assessmentAndCertificateHistory: the user's attempts and certificates. */
export function AssessmentHistoryPage() {
  return (
    <>
      <PageHeading title="My Assessment and Certificate History" />
      <Island name="assessment-history" />
    </>
  );
}
