import * as RadixDialog from "@radix-ui/react-dialog";
import type { ReactNode } from "react";
import { icons } from "../icons";

/**
 * The Radix UI half of Modal (./Dialog.tsx), loaded when the first dialog opens: portalled to
 * <body> (so it takes none of the page's colours), focus kept inside while open (Tab cycles within
 * it) and given back to `returnFocusTo`, the page behind inert and unscrollable, closed by Escape,
 * the close button or a click on the backdrop. The first field takes the focus; without one, the
 * first button.
 */
export default function RadixModal({
  title,
  onClose,
  children,
  className,
  returnFocusTo,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  className?: string;
  returnFocusTo: HTMLElement | null;
}) {
  return (
    <RadixDialog.Root open onOpenChange={(open) => !open && onClose()}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="modal-backdrop">
          <RadixDialog.Content
            className={`modal${className ? ` ${className}` : ""}`}
            aria-describedby={undefined}
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
            }}
          >
            <div className="modal-header">
              <RadixDialog.Title dir="auto">{title}</RadixDialog.Title>
              <RadixDialog.Close className="modal-close icon-button" aria-label="Close">
                {icons.close()}
              </RadixDialog.Close>
            </div>
            <div className="modal-body">{children}</div>
          </RadixDialog.Content>
        </RadixDialog.Overlay>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
