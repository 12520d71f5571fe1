import * as RadixDialog from "@radix-ui/react-dialog";
import { type ReactNode, useState } from "react";
import { icons } from "../icons";

/**
 * What gets the focus back when a dialog closes: what had it when the dialog opened, or, for a
 * dialog opened from a menu item (which is gone by then), that menu's trigger.
 */
function focusReturnTarget(): HTMLElement | null {
  if (typeof document === "undefined") return null;
  const active = document.activeElement as HTMLElement | null;
  const triggerId = active?.closest("[role=menu]")?.getAttribute("aria-labelledby");
  return (triggerId && document.getElementById(triggerId)) || active;
}

/**
 * A modal dialog on Radix UI: portalled to <body> (so it takes none of the page's colours), focus
 * kept inside while open (Tab cycles within it) and given back to what had it, the page behind
 * inert and unscrollable, closed by Escape, the close button or a click on the backdrop. The first
 * field takes the focus; without one, the first button.
 */
export function Modal({ title, onClose, children, className }: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** An extra class on the dialog box, for dialogs that need more width. */
  className?: string;
}) {
  const [returnFocusTo] = useState(focusReturnTarget);
  return (
    <RadixDialog.Root open onOpenChange={(open) => !open && onClose()}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="modal-backdrop">
          <RadixDialog.Content className={`modal${className ? ` ${className}` : ""}`} aria-describedby={undefined}
            onCloseAutoFocus={(event) => {
              event.preventDefault();
              if (returnFocusTo?.isConnected) returnFocusTo.focus();
            }}
            onOpenAutoFocus={(event) => {
              const dialog = event.currentTarget as HTMLElement;
              const first = dialog.querySelector<HTMLElement>(
                "input:not([type=hidden]):not([disabled]), textarea:not([disabled]), select:not([disabled]), .modal-body button:not([disabled])",
              );
              if (first) {
                event.preventDefault();
                first.focus();
              }
            }}>
            <div className="modal-header">
              <RadixDialog.Title dir="auto">{title}</RadixDialog.Title>
              <RadixDialog.Close className="modal-close icon-button" aria-label="Close">{icons.close()}</RadixDialog.Close>
            </div>
            <div className="modal-body">{children}</div>
          </RadixDialog.Content>
        </RadixDialog.Overlay>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
