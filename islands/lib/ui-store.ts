import { useSyncExternalStore } from "react";

/**
 * The app shell's client-side state shared by all islands on a page: toasts (top centre, or bottom on phones, closing
 * after 3000 ms), the alert/confirm popups and the count of pending API calls (loading bar).
 */
export interface Toast {
  id: number;
  message: string;
  kind: "info" | "success" | "error" | "warning";
}
export interface Popup {
  id: number;
  kind: "alert" | "confirm";
  message: string;
  /** A way on from the message, beside OK (e.g. "Sign in" after "Please login first"). */
  link?: { href: string; label: string };
  resolve: (ok: boolean) => void;
}
interface UiState {
  toasts: Toast[];
  popups: Popup[];
  pending: number;
}

export const TOAST_TIMEOUT_MS = 3000;
let state: UiState = { toasts: [], popups: [], pending: 0 };
let nextId = 1;
const listeners = new Set<() => void>();

function update(change: (s: UiState) => UiState) {
  state = change(state);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useUiState(): UiState {
  return useSyncExternalStore(
    subscribe,
    () => state,
    () => state,
  );
}

export function showToast(message: string, kind: Toast["kind"] = "info") {
  const id = nextId++;
  update((s) => ({ ...s, toasts: [...s.toasts, { id, message, kind }].slice(-20) }));
  setTimeout(() => dismissToast(id), TOAST_TIMEOUT_MS);
}

/** Where toasts wait for the next page of this tab (sessionStorage). */
const NEXT_PAGE_TOASTS_KEY = "engram.toasts-for-next-page";

/**
 * A toast for the page this tab goes to next, for an action that ends by loading a page (sharing a
 * notebook, saving a notebook's settings): the shell shows it once that page is up.
 */
export function showToastOnNextPage(message: string, kind: Toast["kind"] = "info") {
  try {
    const waiting = JSON.parse(sessionStorage.getItem(NEXT_PAGE_TOASTS_KEY) ?? "[]") as Pick<Toast, "message" | "kind">[];
    sessionStorage.setItem(NEXT_PAGE_TOASTS_KEY, JSON.stringify([...waiting, { message, kind }].slice(-5)));
  } catch {
    // storage full or unavailable: the page that loads says nothing, as before
  }
}

/** Shows the toasts left for this page by the one before (showToastOnNextPage), once. */
export function showToastsLeftForThisPage() {
  let waiting: Pick<Toast, "message" | "kind">[] = [];
  try {
    waiting = JSON.parse(sessionStorage.getItem(NEXT_PAGE_TOASTS_KEY) ?? "[]");
    sessionStorage.removeItem(NEXT_PAGE_TOASTS_KEY);
  } catch {
    return;
  }
  for (const toast of Array.isArray(waiting) ? waiting : []) {
    if (typeof toast?.message === "string") showToast(toast.message, toast.kind);
  }
}

export function dismissToast(id: number) {
  update((s) => ({ ...s, toasts: s.toasts.filter((t) => t.id !== id) }));
}

function popup(kind: Popup["kind"], message: string, link?: Popup["link"]): Promise<boolean> {
  return new Promise((resolve) => {
    const id = nextId++;
    const close = (ok: boolean) => {
      update((s) => ({ ...s, popups: s.popups.filter((p) => p.id !== id) }));
      resolve(ok);
    };
    update((s) => ({ ...s, popups: [...s.popups, { id, kind, message, ...(link ? { link } : {}), resolve: close }] }));
  });
}

/** The "Information" popup with OK, and `link` beside it when given. */
export function alertPopup(message: string, link?: Popup["link"]): Promise<void> {
  return popup("alert", message, link).then(() => undefined);
}

/** The sign-in page, coming back to this page afterwards. */
export const signInLink = (): NonNullable<Popup["link"]> => ({
  href: `/users/sign-in?from=${encodeURIComponent(window.location.pathname + window.location.search)}`,
  label: "Sign in",
});

/** The "Please confirm" popup with OK and Cancel; true for OK. */
export function confirmPopup(message: string): Promise<boolean> {
  return popup("confirm", message);
}

export function beginLoading() {
  update((s) => ({ ...s, pending: s.pending + 1 }));
}

export function endLoading() {
  update((s) => ({ ...s, pending: Math.max(0, s.pending - 1) }));
}
