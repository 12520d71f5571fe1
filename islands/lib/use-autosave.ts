import { useCallback, useEffect, useRef, useState } from "react";
import { ApiError } from "./api";
import { clearDraft, readDraft, writeDraft } from "./drafts";

/** Spec 9: text autosave debounce. */
export const AUTOSAVE_DEBOUNCE_MS = 1000;
/** After a failed save, try again after these delays (the last one repeats). */
const RETRY_DELAYS_MS = [2000, 5000, 10_000, 30_000];

export interface AutosaveOptions {
  /** The value the server has (changes when the note is refetched or changed elsewhere). */
  serverValue: string;
  /**
   * Saves; resolves when the server has it. `keepalive` is set when the page is being left;
   * `retry` when an earlier attempt failed (so a failure is reported once, not on every retry).
   */
  save: (value: string, options: { keepalive: boolean; retry: boolean }) => Promise<void>;
  /** A value that must not be saved (e.g. a blank title) answers false. */
  canSave?: (value: string) => boolean;
  /** Called once a save succeeded, with the value the server had before it. */
  onSaved?: (saved: string, previous: string) => void;
  /** Keeps unsaved text in localStorage under this key until it is saved (see drafts.ts). */
  draftKey?: string;
}

export interface Autosave {
  value: string;
  dirty: boolean;
  saving: boolean;
  /** The last save failed and will be retried. */
  failed: boolean;
  /** The server refused the text (400): its field message. Not retried until the text changes. */
  rejected: string | undefined;
  onChange: (value: string) => void;
  /** Saves now (on blur). */
  flush: () => void;
}

/** What the hook knows between renders; kept in a ref so that timers and listeners read it fresh. */
interface SaveState {
  value: string;
  dirty: boolean;
  /** What the server is known to have (the base for undo). */
  saved: string;
  /** A save in flight, with the value it sends. */
  inFlight: string | undefined;
  timer: ReturnType<typeof setTimeout> | undefined;
  retries: number;
  /** The last text the server refused; not sent again. */
  refused: string | undefined;
}

function keepDraft(key: string | undefined, s: SaveState) {
  if (key) writeDraft(key, { value: s.value, base: s.saved });
}

function dropDraft(key: string | undefined) {
  if (key) clearDraft(key);
}

function clearTimer(s: SaveState) {
  if (s.timer) clearTimeout(s.timer);
  s.timer = undefined;
}

/**
 * Autosave per spec 4 "Text editing": dirty on change, cleared when the save completes; saved
 * 1000 ms after the last change, and at once on blur and when the page is left (with keepalive,
 * so the request survives the navigation). A value refused by canSave is never sent. If a newer
 * value arrives from the server while edits are unsaved, the pending save is cancelled and the
 * incoming value adopted. A failed save keeps the text dirty and is retried, so nothing typed is lost;
 * with a draftKey the unsaved text also survives closing the tab, and is saved on the next visit.
 * A save the server refuses (400) is not retried, since the same text would be refused again: the
 * text stays (and its draft), and the next change is saved as usual.
 */
export function useAutosave({ serverValue, save, canSave = () => true, onSaved, draftKey }: AutosaveOptions): Autosave {
  const [value, setValue] = useState(serverValue);
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState(false);
  const [failed, setFailed] = useState(false);
  const [rejected, setRejected] = useState<string>();

  const state = useRef<SaveState>({
    value: serverValue,
    dirty: false,
    saved: serverValue,
    inFlight: undefined,
    timer: undefined,
    retries: 0,
    refused: undefined,
  });
  // The latest options, read when a save runs: the callbacks below stay the same across renders.
  const callbacks = useRef({ save, canSave, onSaved, draftKey });
  callbacks.current = { save, canSave, onSaved, draftKey };

  const runSave = useCallback(async (keepalive = false) => {
    const s = state.current;
    clearTimer(s);
    if (!s.dirty || s.inFlight !== undefined) return;
    const toSend = s.value;
    if (!callbacks.current.canSave(toSend) || toSend === s.refused) return;
    if (toSend === s.saved) {
      s.dirty = false;
      setDirty(false);
      return;
    }
    s.inFlight = toSend;
    setSaving(true);
    try {
      await callbacks.current.save(toSend, { keepalive, retry: s.retries > 0 });
      const previous = s.saved;
      s.saved = toSend;
      s.retries = 0;
      s.refused = undefined;
      setFailed(false);
      setRejected(undefined);
      callbacks.current.onSaved?.(toSend, previous);
      if (s.value === toSend) {
        s.dirty = false;
        setDirty(false);
        dropDraft(callbacks.current.draftKey);
      } else keepDraft(callbacks.current.draftKey, s);
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) {
        s.refused = toSend;
        s.retries = 0;
        setFailed(false);
        setRejected(Object.values(error.errors)[0] ?? error.message);
        return;
      }
      s.retries += 1;
      setFailed(true);
      const delay = RETRY_DELAYS_MS[Math.min(s.retries - 1, RETRY_DELAYS_MS.length - 1)]!;
      s.timer = setTimeout(() => void runSave(), delay);
    } finally {
      s.inFlight = undefined;
      setSaving(false);
      // Typed more while the save was in flight: save that too, after the usual pause.
      if (s.dirty && !s.timer && s.value !== s.saved && s.value !== s.refused)
        s.timer = setTimeout(() => void runSave(), AUTOSAVE_DEBOUNCE_MS);
    }
  }, []);

  // A value from the server that is not the echo of our own save: adopt it, dropping any pending save.
  useEffect(() => {
    const s = state.current;
    if (serverValue === s.saved || serverValue === s.inFlight) return;
    clearTimer(s);
    s.saved = serverValue;
    s.value = serverValue;
    s.dirty = false;
    s.retries = 0;
    s.refused = undefined;
    setValue(serverValue);
    setDirty(false);
    setFailed(false);
    setRejected(undefined);
    dropDraft(callbacks.current.draftKey);
  }, [serverValue]);

  // Text left unsaved on an earlier visit: take it up again if the server still has what it was typed over.
  useEffect(() => {
    if (!draftKey) return;
    const draft = readDraft(draftKey);
    if (!draft) return;
    const s = state.current;
    if (draft.base !== s.saved || draft.value === s.saved) {
      clearDraft(draftKey);
      return;
    }
    s.value = draft.value;
    s.dirty = true;
    setValue(draft.value);
    setDirty(true);
    s.timer = setTimeout(() => void runSave(), AUTOSAVE_DEBOUNCE_MS);
  }, [draftKey, runSave]);

  // Leaving the page: send what is unsaved with keepalive; warn when a save has been failing.
  useEffect(() => {
    const onPageHide = () => void runSave(true);
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      const s = state.current;
      if (s.dirty && (s.retries > 0 || s.value === s.refused)) event.preventDefault();
      void runSave(true);
    };
    window.addEventListener("pagehide", onPageHide);
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => {
      window.removeEventListener("pagehide", onPageHide);
      window.removeEventListener("beforeunload", onBeforeUnload);
      clearTimer(state.current);
    };
  }, [runSave]);

  const onChange = useCallback(
    (next: string) => {
      const s = state.current;
      s.value = next;
      s.dirty = true;
      keepDraft(callbacks.current.draftKey, s);
      setValue(next);
      setDirty(true);
      clearTimer(s);
      s.timer = setTimeout(() => void runSave(), AUTOSAVE_DEBOUNCE_MS);
    },
    [runSave],
  );

  const flush = useCallback(() => void runSave(), [runSave]);

  return { value, dirty, saving, failed, rejected, onChange, flush };
}
