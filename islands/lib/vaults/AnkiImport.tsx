import { useState } from "react";
import { CheckboxField } from "../forms";
import { useElementId } from "../island-id";
import { notePath } from "../notes-queries";
import { Modal } from "../ui/Dialog";
import { ImportProgress, SkippedList, uploadWithProgress, useFileImport } from "./ObsidianVault";

/** What POST /api/notebooks/anki answers (services/vaults/anki-import.ts). */
interface AnkiImportReport {
  noteId: number;
  created: number;
  images: number;
  trackers: number;
  reviews: number;
  skipped: { path: string; reason: string }[];
}

/**
 * "Import Anki deck": an .apkg becomes a new notebook. Upload progress, then "Importing...", then
 * the report with a link to the new notebook.
 */
export function AnkiImportDialog({ onClose }: { onClose: () => void }) {
  const [withReviewState, setWithReviewState] = useState(true);
  const { progress, error, report, submit, chooseFile } = useFileImport((file, onProgress) => {
    const form = new FormData();
    form.append("file", file);
    if (withReviewState) form.append("withReviewState", "true");
    return uploadWithProgress<AnkiImportReport>("/api/notebooks/anki", form, onProgress);
  }, "Failed to import file: choose an .apkg file first");
  const fileId = useElementId("anki-import-file");

  const close = () => {
    if (progress) return;
    if (report) window.location.reload();
    else onClose();
  };

  return (
    <Modal title="Import Anki deck" onClose={close}>
      {report ? (
        <>
          <div className="obsidian-report" role="status">
            <p>
              <strong>Import complete.</strong>
            </p>
            <dl className="obsidian-report-counts">
              <dt>Notes created</dt>
              <dd>{report.created}</dd>
              <dt>Images</dt>
              <dd>{report.images}</dd>
              <dt>Memory trackers</dt>
              <dd>{report.trackers}</dd>
              <dt>Reviews carried over</dt>
              <dd>{report.reviews}</dd>
            </dl>
            <SkippedList skipped={report.skipped} />
          </div>
          <div className="dialog-actions">
            <button type="button" className="button" onClick={close}>
              Close
            </button>
            <a className="button primary" href={notePath(report.noteId)}>
              Open the notebook
            </a>
          </div>
        </>
      ) : (
        <form onSubmit={submit} noValidate aria-busy={progress ? true : undefined}>
          <p className="field-hint obsidian-hint">
            An Anki deck package (.apkg) becomes a new notebook: its decks become notes holding the cards' notes.
          </p>
          {error && (
            <div className="form-message import-error" role="alert">
              {error}
            </div>
          )}
          <fieldset className="plain-fieldset" disabled={!!progress}>
            <div className="field">
              <label htmlFor={fileId}>Deck (.apkg)</label>
              <input id={fileId} name="file" type="file" accept=".apkg" onChange={(event) => chooseFile(event.target.files?.[0])} />
            </div>
            <CheckboxField
              label="Carry over the review state"
              name="withReviewState"
              checked={withReviewState}
              onChange={setWithReviewState}
            />
            {progress && <ImportProgress progress={progress} />}
            <div className="dialog-actions">
              <button type="button" className="button" onClick={close}>
                Cancel
              </button>
              <button type="submit" className="button primary">
                Import
              </button>
            </div>
          </fieldset>
        </form>
      )}
    </Modal>
  );
}
