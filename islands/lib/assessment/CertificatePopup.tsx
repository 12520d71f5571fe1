import { useQuery } from "@tanstack/react-query";
import { Modal } from "../ui/Dialog";
import { certificateQuery, utcDay } from "./queries";

/**
 * "View Certificate": the learner's name, the notebook, its creator, and the start and expiry
 * days (YYYY-MM-DD, UTC). Laid out to be printed: the print stylesheet shows only the certificate.
 */
export function CertificatePopup({ notebookId, onClose }: { notebookId: number; onClose: () => void }) {
  const { data: certificate, isPending, isError } = useQuery(certificateQuery(notebookId));
  return (
    <Modal title="Certificate" onClose={onClose} className="certificate-dialog">
      {isPending ? (
        <p className="muted">Loading the certificate...</p>
      ) : isError || !certificate ? (
        <p role="alert">The certificate could not be loaded.</p>
      ) : (
        <>
          <article className="certificate" aria-label="certificate">
            <p className="certificate-kicker">Certificate of completion</p>
            <p className="certificate-lead">This certifies that</p>
            <p className="certificate-name" dir="auto">
              {certificate.user.name}
            </p>
            <p className="certificate-lead">has passed the assessment of</p>
            <p className="certificate-notebook" dir="auto">
              {certificate.notebook.title}
            </p>
            <dl className="certificate-dates">
              <div>
                <dt>Start</dt>
                <dd>{utcDay(certificate.startDate)}</dd>
              </div>
              <div>
                <dt>Expiry</dt>
                <dd>{utcDay(certificate.expiryDate)}</dd>
              </div>
              <div>
                <dt>Notebook by</dt>
                <dd dir="auto">{certificate.creatorName}</dd>
              </div>
            </dl>
          </article>
          <div className="dialog-actions certificate-actions">
            <button type="button" className="button primary" onClick={() => window.print()}>
              Print
            </button>
          </div>
        </>
      )}
    </Modal>
  );
}
