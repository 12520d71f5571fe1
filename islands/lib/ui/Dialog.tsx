import { lazy, type ReactNode, Suspense, useState, useSyncExternalStore } from "react";

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

/** Fetches the Radix dialog module (./radix-dialog.tsx); Modal does when it first renders. */
export const loadModal = () => import("./radix-dialog");
const RadixModal = lazy(loadModal);

const subscribeNever = () => () => {};

/**
 * A modal dialog, rendered only while open. Its Radix UI half (./radix-dialog.tsx) is loaded when
 * the first dialog opens, not with the page: portalled to <body>, focus kept inside while open and
 * given back to what had it (the menu's trigger for a dialog opened from a menu item), the page
 * behind inert and unscrollable, closed by Escape, the close button or a click on the backdrop.
 * The first field takes the focus; without one, the first button. Nothing is rendered on the
 * server or while hydrating (a portal has nothing to show there either).
 */
export function Modal({
  title,
  onClose,
  children,
  className,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** An extra class on the dialog box, for dialogs that need more width. */
  className?: string;
}) {
  const [returnFocusTo] = useState(focusReturnTarget);
  const inBrowser = useSyncExternalStore(
    subscribeNever,
    () => true,
    () => false,
  );
  if (!inBrowser) return null;
  return (
    <Suspense fallback={null}>
      <RadixModal title={title} onClose={onClose} className={className} returnFocusTo={returnFocusTo}>
        {children}
      </RadixModal>
    </Suspense>
  );
}
