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

export function dismissToast(id: number) {
  update((s) => ({ ...s, toasts: s.toasts.filter((t) => t.id !== id) }));
}

function popup(kind: Popup["kind"], message: string): Promise<boolean> {
  return new Promise((resolve) => {
    const id = nextId++;
    const close = (ok: boolean) => {
      update((s) => ({ ...s, popups: s.popups.filter((p) => p.id !== id) }));
      resolve(ok);
    };
    update((s) => ({ ...s, popups: [...s.popups, { id, kind, message, resolve: close }] }));
  });
}

/** The "Information" popup with OK. */
export function alertPopup(message: string): Promise<void> {
  return popup("alert", message).then(() => undefined);
}

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
