import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { noteNewVersion } from "../lib/app-version";
import { syncTimeZoneCookie } from "../lib/learning-queries";
import { Modal } from "../lib/ui/Dialog";
import { dismissToast, showToastsLeftForThisPage, useUiState } from "../lib/ui-store";

/** The app shell's shared overlays: the thin loading bar, the toasts and the alert/confirm popups. */
export default function ShellOverlays() {
  const { toasts, popups, pending } = useUiState();
  const queryClient = useQueryClient();
  // The server counts "today" in the zone of this cookie; keep it the browser's.
  useEffect(() => syncTimeZoneCookie(queryClient), [queryClient]);
  // "Engram was updated" on the first page of a new version.
  useEffect(() => noteNewVersion(), []);
  // What the previous page's action said as it loaded this one ("Notebook settings saved").
  useEffect(showToastsLeftForThisPage, []);
  const popup = popups[0];
  return (
    <>
      <div className={`loading-bar${pending > 0 ? " active" : ""}`} role="progressbar" aria-hidden={pending === 0} aria-label="Loading" />
      <div className="toasts" aria-live="polite">
        {toasts.map((toast) => (
          <div key={toast.id} className={`toast toast-${toast.kind}`} role="status">
            <span>{toast.message}</span>
            <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => dismissToast(toast.id)}>
              ×
            </button>
          </div>
        ))}
      </div>
      {popup && (
        <Modal title={popup.kind === "alert" ? "Information" : "Please confirm"} onClose={() => popup.resolve(false)}>
          <p className="popup-message">{popup.message}</p>
          <div className="dialog-actions">
            {popup.kind === "confirm" && (
              <button type="button" className="button" onClick={() => popup.resolve(false)}>
                Cancel
              </button>
            )}
            {popup.link && (
              <a className="button" href={popup.link.href}>
                {popup.link.label}
              </a>
            )}
            <button type="button" className="button primary" onClick={() => popup.resolve(true)}>
              OK
            </button>
          </div>
        </Modal>
      )}
    </>
  );
}
