import { type ReactNode, useEffect, useRef } from "react";
import { icons } from "./icons";

/**
 * A modal dialog: closes on Escape and on a click on the backdrop, takes focus on open
 * (first field, else the dialog) and gives it back on close.
 */
export function Modal({ title, onClose, children, labelledBy }: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  labelledBy?: string;
}) {
  const dialogRef = useRef<HTMLDivElement>(null);
  // The latest onClose, so a parent re-rendering with a new function never re-runs the focus effect.
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  useEffect(() => {
    const previouslyFocused = document.activeElement as HTMLElement | null;
    const dialog = dialogRef.current;
    const firstField = dialog?.querySelector<HTMLElement>("input, textarea, select, button:not(.modal-close)");
    (firstField ?? dialog)?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        event.stopPropagation();
        onCloseRef.current();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("keydown", onKey);
      previouslyFocused?.focus?.();
    };
  }, []);
  const titleId = labelledBy ?? "modal-title";
  return (
    <div className="modal-backdrop" onMouseDown={(event) => event.target === event.currentTarget && onClose()}>
      <div className="modal" role="dialog" aria-modal="true" aria-labelledby={titleId} ref={dialogRef} tabIndex={-1}>
        <div className="modal-header">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="modal-close icon-button" aria-label="Close" onClick={onClose}>
            {icons.close()}
          </button>
        </div>
        <div className="modal-body">{children}</div>
      </div>
    </div>
  );
}
