import { type FormEvent, useEffect, useRef, useState } from "react";
import { ApiError, api, call } from "../lib/api";
import { CheckboxField, DialogActions, TextField } from "../lib/forms";
import { useElementId } from "../lib/island-id";
import type { NotebookJson } from "../lib/notes-queries";
import { Modal } from "../lib/ui/Dialog";
import { alertPopup, showToastOnNextPage } from "../lib/ui-store";
import { ObsidianImportDialog, ObsidianVaultSection } from "../lib/vaults/ObsidianVault";
import { CertificateRequest } from "./CertificateRequest";
import { NotebookAiAssistantSection } from "./NotebookAiAssistantSection";

const SETTINGS_FIELDS = ["skipMemoryTrackingEntirely", "numberOfQuestionsInAssessment", "certificateExpiry"] as const;
export const DEFAULT_CERTIFICATE_EXPIRY = "1y";

const INDEX_OPERATIONS = {
  "update-index": { label: "Update index", failure: "Failed to update notebook index" },
  "reset-index": { label: "Reset index", failure: "Failed to reset notebook index" },
} as const;

/**
 * "Update index" (embed the notes changed since) and "Reset index" (embed them all again) for
 * semantic search: both buttons are disabled while one works ("Working..."); a failure alerts.
 */
function NotebookIndexButtons({ notebookId, onComplete }: { notebookId: number; onComplete: () => void }) {
  const headingId = useElementId(`notebook-${notebookId}-index-heading`);
  const [working, setWorking] = useState(false);
  const inFlight = useRef(false);

  async function run(operation: keyof typeof INDEX_OPERATIONS) {
    if (inFlight.current) return;
    inFlight.current = true;
    setWorking(true);
    try {
      await call(api.notebooks({ notebook: notebookId })[operation].post(), { silent: true });
      onComplete();
    } catch {
      inFlight.current = false;
      setWorking(false);
      void alertPopup(INDEX_OPERATIONS[operation].failure);
    }
  }

  return (
    <section className="notebook-index" aria-labelledby={headingId} aria-busy={working || undefined}>
      <h3 id={headingId}>Semantic search index</h3>
      <div className="notebook-index-actions">
        {(Object.keys(INDEX_OPERATIONS) as (keyof typeof INDEX_OPERATIONS)[]).map((operation) => (
          <button key={operation} type="button" className="button" disabled={working} onClick={() => run(operation)}>
            {INDEX_OPERATIONS[operation].label}
          </button>
        ))}
        <span role="status" className="muted">
          {working ? "Working..." : ""}
        </span>
      </div>
    </section>
  );
}

/** Shown in place of the settings once an index operation completed. */
function IndexCompleteDialog({ onClose }: { onClose: () => void }) {
  return (
    <Modal title="Index operation complete" onClose={onClose}>
      <p>Notebook index has been updated.</p>
      <div className="dialog-actions">
        <button type="button" className="button primary" onClick={onClose}>
          OK
        </button>
      </div>
    </Modal>
  );
}

/** "Edit notebook settings": saving reloads the page, which says so; field errors show beside the fields. */
export function NotebookSettingsDialog({ notebook, onClose }: { notebook: NotebookJson; onClose: () => void }) {
  const settings = notebook.notebookSettings;
  const [skipMemoryTrackingEntirely, setSkip] = useState(settings.skipMemoryTrackingEntirely);
  const [numberOfQuestions, setNumberOfQuestions] = useState(
    settings.numberOfQuestionsInAssessment === null ? "" : String(settings.numberOfQuestionsInAssessment),
  );
  const [certificateExpiry, setCertificateExpiry] = useState(settings.certificateExpiry || DEFAULT_CERTIFICATE_EXPIRY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const inFlight = useRef(false);
  const formRef = useRef<HTMLFormElement>(null);
  const [indexUpdated, setIndexUpdated] = useState(false);
  const [importing, setImporting] = useState(false);

  // The fieldset was disabled while sending, which drops focus: give it to the first field in error.
  // biome-ignore lint/correctness/useExhaustiveDependencies: errors is the trigger: the fields just marked invalid are found in the DOM.
  useEffect(() => {
    if (!saving) formRef.current?.querySelector<HTMLElement>("[aria-invalid=true]")?.focus();
  }, [errors, saving]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (inFlight.current) return;
    inFlight.current = true;
    setSaving(true);
    setErrors({});
    try {
      await call(
        api.notebooks({ notebook: notebook.id }).post({
          skipMemoryTrackingEntirely,
          numberOfQuestionsInAssessment: numberOfQuestions.trim() === "" ? null : Number(numberOfQuestions),
          certificateExpiry,
        }),
      );
      showToastOnNextPage("Notebook settings saved", "success");
      window.location.reload();
    } catch (error) {
      if (error instanceof ApiError) setErrors(error.errors);
      inFlight.current = false;
      setSaving(false);
    }
  }

  if (indexUpdated) return <IndexCompleteDialog onClose={onClose} />;
  if (importing) return <ObsidianImportDialog notebookId={notebook.id} notebookTitle={notebook.title} onClose={onClose} />;
  const otherErrors = Object.entries(errors).filter(([field]) => !(SETTINGS_FIELDS as readonly string[]).includes(field));
  return (
    <Modal title="Edit notebook settings" onClose={onClose}>
      <p className="muted notebook-settings-for">{notebook.title}</p>
      <form ref={formRef} onSubmit={submit} noValidate aria-busy={saving || undefined}>
        {otherErrors.length > 0 && (
          <div className="form-message" role="alert">
            {otherErrors.map(([field, message]) => `${field} ${message}`).join("; ")}
          </div>
        )}
        <fieldset className="plain-fieldset" disabled={saving}>
          <CheckboxField
            label="Skip Memory Tracking Entirely"
            name="skipMemoryTrackingEntirely"
            checked={skipMemoryTrackingEntirely}
            error={errors.skipMemoryTrackingEntirely}
            onChange={setSkip}
          />
          <TextField
            label="Number Of Questions In Assessment"
            name="numberOfQuestionsInAssessment"
            type="number"
            min={0}
            max={1000}
            step={1}
            inputMode="numeric"
            value={numberOfQuestions}
            error={errors.numberOfQuestionsInAssessment}
            onChange={(event) => setNumberOfQuestions(event.target.value)}
          />
          <TextField
            label="Certificate Expiry"
            name="certificateExpiry"
            value={certificateExpiry}
            placeholder="1y 1m 1d"
            autoComplete="off"
            error={errors.certificateExpiry}
            onChange={(event) => setCertificateExpiry(event.target.value)}
          />
          <p className="field-hint">Years, months and days, e.g. "1y 6m" or "90d".</p>
          <DialogActions onCancel={onClose} submitLabel="Update" />
        </fieldset>
      </form>
      <CertificateRequest notebookId={notebook.id} creatorId={notebook.creatorId} />
      <NotebookAiAssistantSection notebookId={notebook.id} />
      <NotebookIndexButtons notebookId={notebook.id} onComplete={() => setIndexUpdated(true)} />
      <ObsidianVaultSection notebookId={notebook.id} onImport={() => setImporting(true)} />
    </Modal>
  );
}
