import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { CertificatePopup } from "../lib/assessment/CertificatePopup";
import { assessmentHistoryQuery } from "../lib/assessment/queries";
import { CheckboxField, TextField } from "../lib/forms";

const attemptAt = (iso: string) => new Date(iso).toISOString().slice(0, 16).replace("T", " ");

/**
 * /d/assessmentAndCertificateHistory: the user's attempts (Notebook, Attempt At, Result,
 * Certificate), filtered by notebook title and, with "Filter by Certificate", passed ones only.
 */
export default function AssessmentHistory() {
  const { data: attempts = [], isPending } = useQuery(assessmentHistoryQuery());
  const [filter, setFilter] = useState("");
  const [passedOnly, setPassedOnly] = useState(false);
  const [viewing, setViewing] = useState<number>();
  const submitted = attempts.filter((a) => a.submittedAt);
  const shown = submitted.filter((a) => a.notebookTitle.toLowerCase().includes(filter.trim().toLowerCase()) && (!passedOnly || a.isPass));

  if (isPending) return <p className="muted">Loading your attempts...</p>;
  if (submitted.length === 0) {
    return (
      <p className="empty-state">
        You have not taken any assessment yet. Find a notebook in the <a href="/d/bazaar">Bazaar</a> and choose "Start Assessment".
      </p>
    );
  }
  return (
    <div className="assessment-history">
      <div className="history-filters">
        <TextField
          label="Search by notebook"
          name="notebookFilter"
          type="search"
          value={filter}
          onChange={(event) => setFilter(event.target.value)}
        />
        <CheckboxField label="Filter by Certificate" name="filterByCertificate" checked={passedOnly} onChange={setPassedOnly} />
      </div>
      <div className="table-scroll">
        <table className="history-table">
          <thead>
            <tr>
              <th scope="col">Notebook</th>
              <th scope="col">Attempt At</th>
              <th scope="col">Result</th>
              <th scope="col">Certificate</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((attempt) => (
              <tr key={attempt.id}>
                <td dir="auto">{attempt.notebookTitle}</td>
                <td>{attemptAt(attempt.submittedAt!)}</td>
                <td>
                  {attempt.isPass ? "Pass" : "Fail"}{" "}
                  <span className="muted">
                    ({attempt.answersCorrect} / {attempt.totalQuestionCount})
                  </span>
                </td>
                <td>
                  {attempt.isPass && attempt.certifiable ? (
                    <button type="button" className="button small" onClick={() => setViewing(attempt.notebookId)}>
                      View Certificate
                    </button>
                  ) : attempt.isPass ? (
                    <span className="muted">Not certifiable</span>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {shown.length === 0 && <p className="muted">No attempt matches.</p>}
      {viewing !== undefined && <CertificatePopup notebookId={viewing} onClose={() => setViewing(undefined)} />}
    </div>
  );
}
