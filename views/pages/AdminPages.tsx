import type { AdminTab } from "../../islands/admin-dashboard/tabs";
import type { FailureReportForViewJson } from "../../src/services/failure-reports";
import { Island } from "../Island";
import { PageHeading } from "./SimplePages";

/** /d/admin-dashboard/{tab}. */
export function AdminDashboardPage({ tab }: { tab: AdminTab }) {
  return (
    <>
      <PageHeading title="Admin Dashboard" />
      <Island name="admin-dashboard" props={{ tab }} />
    </>
  );
}

/** What a signed-in non-admin sees on an admin page (with status 403). */
export function CannotAccessPage() {
  return (
    <div className="card narrow-form">
      <h1>Admin Dashboard</h1>
      <p role="alert">It seems you cannot access this page.</p>
      <p>
        <a href="/">Go to the home page</a>
      </p>
    </div>
  );
}

/** /d/failure-report-list/show/{id}: the error, its detail (the stack) and time, and an issue link when a tracker is set. */
export function FailureReportPage({ view }: { view: FailureReportForViewJson }) {
  const report = view.failureReport;
  return (
    <>
      <PageHeading title={report.errorName} />
      <p>
        <a href="/d/admin-dashboard/failure-reports">Failure Reports</a>
      </p>
      <dl className="failure-report-facts">
        <dt>Created</dt>
        <dd>
          <time dateTime={report.createDatetime}>{report.createDatetime.slice(0, 19).replace("T", " ")} UTC</time>
        </dd>
      </dl>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable detail must be focusable to scroll by keyboard; its label names it. */}
      {/* biome-ignore lint/a11y/useSemanticElements: a pre that keeps its layout; role region gives the focusable scroll area its name. */}
      <pre className="failure-report-detail" role="region" tabIndex={0} aria-label="error detail">
        {report.errorDetail}
      </pre>
      {view.githubIssueUrl ? (
        <p>
          <a href={view.githubIssueUrl} target="_blank" rel="noreferrer noopener">
            Open an issue about this failure
          </a>
        </p>
      ) : (
        <p className="muted">Set ENGRAM_ISSUE_TRACKER_URL to open an issue about a failure from here.</p>
      )}
    </>
  );
}
