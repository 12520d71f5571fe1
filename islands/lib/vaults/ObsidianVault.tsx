import { type FormEvent, useRef, useState } from "react";
import { useElementId } from "../island-id";
import { OperationProgress } from "../operations/OperationProgress";
import { dismissOperation, OPERATION_POLL_MS, type OperationJson, readOperation } from "../operations/queries";
import { Modal } from "../ui/Dialog";

/** What POST /api/notebooks/{id}/obsidian answers (services/vaults/import.ts). */
export interface ImportReport {
  created: number;
  updated: number;
  links: number;
  images: number;
  /** Files the notes embed (images, audio, video, PDF), added or changed. */
  attachments: number;
  skipped: { path: string; reason: string }[];
}

export type Progress = { stage: "uploading"; percent: number } | { stage: "importing" } | { stage: "working"; operation: OperationJson };

/**
 * Sends a file with XMLHttpRequest rather than fetch: only it reports upload progress, which a
 * vault or deck of many megabytes needs. The server answers at once (`Prefer: respond-async`)
 * with the import's operation, which a worker runs: its progress is then followed until it ends
 * (and the operation dismissed: its result shows here). Resolves with the report; rejects with
 * the message to show.
 */
export async function uploadWithProgress<T>(url: string, form: FormData, onProgress: (progress: Progress) => void): Promise<T> {
  const answer = await upload<T | OperationJson>(url, form, onProgress);
  if (!isOperation(answer)) return answer;
  let operation = answer;
  for (;;) {
    onProgress({ stage: "working", operation });
    if (operation.status !== "running") break;
    await new Promise((resolve) => setTimeout(resolve, OPERATION_POLL_MS));
    // A failed poll (a moment offline, a restart) is tried again at the next one.
    operation = (await readOperation(operation.id).catch(() => undefined)) ?? operation;
  }
  await dismissOperation(operation.id).catch(() => undefined);
  if (operation.status === "failed") throw new Error(`Failed to import file: ${operation.error}`);
  return operation.result as T;
}

const isOperation = (answer: unknown): answer is OperationJson =>
  typeof answer === "object" && answer !== null && "status" in answer && "kind" in answer && "phase" in answer;

function upload<T>(url: string, form: FormData, onProgress: (progress: Progress) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.setRequestHeader("accept", "application/json");
    xhr.setRequestHeader("prefer", "respond-async");
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress({ stage: "uploading", percent: Math.round((event.loaded / event.total) * 100) });
    };
    xhr.upload.onload = () => onProgress({ stage: "importing" });
    xhr.onerror = () => reject(new Error("Failed to import file: the server cannot be reached"));
    xhr.onload = () => {
      let body: { errors?: Record<string, string>; message?: string } = {};
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // not JSON (a proxy's error page): the status says enough
      }
      if (xhr.status === 200 || xhr.status === 202) resolve(body as T);
      else if (xhr.status === 401) reject(new Error("Failed to import file: you are signed out. Sign in and try again."));
      else if (xhr.status === 413) reject(new Error("Failed to import file: the file is larger than 100 MiB"));
      else {
        const reason = body.errors?.file ?? body.message ?? `${xhr.status} ${xhr.statusText}`;
        reject(new Error(reason.startsWith("Failed to import file") ? reason : `Failed to import file: ${reason}`));
      }
    };
    onProgress({ stage: "uploading", percent: 0 });
    xhr.send(form);
  });
}

function uploadVault(notebookId: number, file: File, onProgress: (progress: Progress) => void): Promise<ImportReport> {
  const form = new FormData();
  form.append("file", file);
  return uploadWithProgress(`/api/notebooks/${notebookId}/obsidian`, form, onProgress);
}

/** Upload progress, then the import's own progress (counts) while a worker imports it. */
export function ImportProgress({ progress }: { progress: Progress }) {
  if (progress.stage === "working") return <OperationProgress operation={progress.operation} />;
  return (
    <div className="obsidian-progress" role="status">
      {progress.stage === "uploading" ? (
        <>
          <progress max={100} value={progress.percent} aria-label="Upload progress" />
          <span>Uploading... {progress.percent}%</span>
        </>
      ) : (
        <>
          <progress aria-label="Import progress" />
          <span>Importing...</span>
        </>
      )}
    </div>
  );
}

/** Each skipped file with its reason. */
export function SkippedList({ skipped }: { skipped: ImportReport["skipped"] }) {
  const skippedId = useElementId("import-skipped-heading");
  if (skipped.length === 0) return null;
  return (
    <section aria-labelledby={skippedId}>
      <h3 id={skippedId}>Skipped ({skipped.length})</h3>
      <ul className="obsidian-skipped">
        {skipped.map((item, i) => (
          <li
            // biome-ignore lint/suspicious/noArrayIndexKey: the report's lines have no id and do not change once shown.
            key={i}
          >
            <span className="obsidian-skipped-path" dir="auto">
              {item.path}
            </span>
            : {item.reason}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The report shown when an import finished: counts, then each skipped file with its reason. */
function ImportReportView({ report }: { report: ImportReport }) {
  return (
    <div className="obsidian-report" role="status">
      <p>
        <strong>Import complete.</strong>
      </p>
      <dl className="obsidian-report-counts">
        <dt>Notes created</dt>
        <dd>{report.created}</dd>
        <dt>Notes updated</dt>
        <dd>{report.updated}</dd>
        <dt>Links made</dt>
        <dd>{report.links}</dd>
        <dt>Images</dt>
        <dd>{report.images}</dd>
        <dt>Embedded files</dt>
        <dd>{report.attachments}</dd>
      </dl>
      <SkippedList skipped={report.skipped} />
    </div>
  );
}

/**
 * One import upload at a time: the chosen file, its progress, the failure ("Failed to import
 * file: ..."), and the report once done. Both import dialogs (Obsidian vault, Anki deck) use it.
 */
export function useFileImport<T>(upload: (file: File, onProgress: (progress: Progress) => void) => Promise<T>, missingFile: string) {
  const [file, setFile] = useState<File>();
  const [progress, setProgress] = useState<Progress>();
  const [error, setError] = useState<string>();
  const [report, setReport] = useState<T>();
  const inFlight = useRef(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!file) {
      setError(missingFile);
      return;
    }
    if (inFlight.current) return;
    inFlight.current = true;
    setError(undefined);
    try {
      setReport(await upload(file, setProgress));
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      inFlight.current = false;
      setProgress(undefined);
    }
  }

  const chooseFile = (chosen: File | undefined) => {
    setFile(chosen);
    setError(undefined);
  };
  return { progress, error, report, submit, chooseFile };
}

/**
 * "Import from Obsidian": pick a vault's .zip; upload progress, then "Importing...", then the
 * report. Closing after an import reloads the page so the new notes show.
 */
export function ObsidianImportDialog({
  notebookId,
  notebookTitle,
  onClose,
}: {
  notebookId: number;
  notebookTitle?: string;
  onClose: () => void;
}) {
  const { progress, error, report, submit, chooseFile } = useFileImport(
    (file, onProgress) => uploadVault(notebookId, file, onProgress),
    "Failed to import file: choose a .zip file first",
  );
  const fileId = useElementId("obsidian-import-file");

  const close = () => {
    if (progress) return;
    if (report && (report.created || report.updated || report.links || report.images || report.attachments)) window.location.reload();
    else onClose();
  };

  return (
    <Modal title="Import from Obsidian" onClose={close}>
      {notebookTitle && (
        <p className="muted notebook-settings-for" dir="auto">
          {notebookTitle}
        </p>
      )}
      {report ? (
        <>
          <ImportReportView report={report} />
          <div className="dialog-actions">
            <button type="button" className="button primary" onClick={close}>
              OK
            </button>
          </div>
        </>
      ) : (
        <form onSubmit={submit} noValidate aria-busy={progress ? true : undefined}>
          <p className="field-hint obsidian-hint">
            A vault as a .zip file. Its notes go under the notebook's head note; notes with the same title are updated.
          </p>
          {error && (
            <div className="form-message import-error" role="alert">
              {error}
            </div>
          )}
          <fieldset className="plain-fieldset" disabled={!!progress}>
            <div className="field">
              <label htmlFor={fileId}>Vault (.zip)</label>
              <input
                id={fileId}
                name="file"
                type="file"
                accept=".zip,application/zip"
                onChange={(event) => chooseFile(event.target.files?.[0])}
              />
            </div>
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

/** The notebook settings' Obsidian section: the export download and the import button. */
export function ObsidianVaultSection({ notebookId, onImport }: { notebookId: number; onImport: () => void }) {
  const headingId = useElementId(`notebook-${notebookId}-obsidian-heading`);
  return (
    <section className="notebook-obsidian" aria-labelledby={headingId}>
      <h3 id={headingId}>Obsidian</h3>
      <div className="notebook-obsidian-actions">
        <a className="button" href={`/api/notebooks/${notebookId}/obsidian`} download>
          Export for Obsidian
        </a>
        <button type="button" className="button" onClick={onImport}>
          Import from Obsidian
        </button>
      </div>
    </section>
  );
}
