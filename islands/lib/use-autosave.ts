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
  /** Its revision, when the server keeps them: a save says which one it was made from. */
  serverRevision?: number;
  /**
   * Saves; resolves when the server has it, with the text it kept (a merge of this save and what
   * others saved since, made on the server) and its revision. `keepalive` is set when the page is
   * being left; `retry` when an earlier attempt failed (so a failure is reported once, not on
   * every retry); `baseRevision` is the revision of the server text this value was made from.
   */
  save: (value: string, options: { keepalive: boolean; retry: boolean; baseRevision?: number }) => Promise<SavedText | unknown>;
  /** A value that must not be saved (e.g. a blank title) answers false. */
  canSave?: (value: string) => boolean;
  /**
   * Called once a save succeeded, with the value the server kept, what it had before this save's
   * change (what undo goes back to), and the kept value's revision.
   */
  onSaved?: (saved: string, previous: string, revision?: number) => void;
  /** The server answered that others changed the same place (409): fetch its text again. */
  onConflict?: () => void;
  /** The person chose the other version in a conflict: theirs is set aside here (for undo). */
  onDiscarded?: (discarded: string, revision?: number) => void;
  /** Keeps unsaved text in localStorage under this key until it is saved (see drafts.ts). */
  draftKey?: string;
}

/** What the server kept of a save. */
export interface SavedText {
  value: string;
  revision?: number;
}

const isSavedText = (answer: unknown): answer is SavedText =>
  typeof answer === "object" && answer !== null && typeof (answer as SavedText).value === "string";

/**
 * Two edits of the same place: this person's (still unsaved) and one saved by someone else.
 * Neither is kept until the person chooses; the other one then goes into the undo history.
 */
export interface EditConflict {
  mine: string;
  theirs: string;
  keepMine: () => void;
  keepTheirs: () => void;
}

export interface Autosave {
  value: string;
  dirty: boolean;
  saving: boolean;
  /** The last save failed and will be retried. */
  failed: boolean;
  /** The server refused the text (400): its field message. Not retried until the text changes. */
  rejected: string | undefined;
  /** Someone else changed the same place: nothing is saved until the person chooses. */
  conflict: EditConflict | undefined;
  /**
   * The person typed. `basedOn` is the value the editor showed before this edit: when the value
   * moved on meanwhile (someone else's change merged in, not yet shown), the edit is merged into it.
   */
  onChange: (value: string, basedOn?: string) => void;
  /**
   * The value as of now, which `value` is only as of the last render: an editor that tells its
   * edits between renders compares what it shows with this, never with a render's value.
   */
  currentValue: () => string;
  /** Saves now (on blur). */
  flush: () => void;
}

/** What the hook knows between renders; kept in a ref so that timers and listeners read it fresh. */
interface SaveState {
  value: string;
  dirty: boolean;
  /** What the server is known to have: the base of the value (for merging, and for undo). */
  saved: string;
  /** Its revision. */
  savedRevision: number | undefined;
  /** A save in flight, with the value it sends. */
  inFlight: string | undefined;
  timer: ReturnType<typeof setTimeout> | undefined;
  retries: number;
  /** The last text the server refused; not sent again. */
  refused: string | undefined;
  /** Waiting for the person to choose between their text and this one (its revision too). */
  conflict: { theirs: string; revision: number | undefined } | undefined;
  /** The server answered 409: nothing is sent again until its newer text has arrived. */
  awaitingServer: boolean;
}

/** The three-way merge, fetched the first time two edits meet (it is not needed before). */
let loadedMerge: typeof import("./text-merge").mergeTexts | undefined;
const loadMerge = () =>
  import("./text-merge").then((m) => {
    loadedMerge = m.mergeTexts;
    return m.mergeTexts;
  });

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
 * value arrives from the server (someone else saved) while edits are unsaved, the two are merged
 * (lib/text-merge.ts) when they touch different places; when they touch the same place nothing
 * is saved and `conflict` asks the person which to keep. Each save says which server revision it
 * was made from, so the server merges what it has newer, or answers 409 (then the newer text is
 * fetched and merged here, or the choice is asked). A failed save keeps the text dirty and is retried, so nothing typed is lost;
 * with a draftKey the unsaved text also survives closing the tab, and is saved on the next visit.
 * A save the server refuses (400) is not retried, since the same text would be refused again: the
 * text stays (and its draft), and the next change is saved as usual.
 */
export function useAutosave({
  serverValue,
  serverRevision,
  save,
  canSave = () => true,
  onSaved,
  onConflict,
  onDiscarded,
  draftKey,
}: AutosaveOptions): Autosave {
  const [value, setValue] = useState(serverValue);
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState(false);
  const [failed, setFailed] = useState(false);
  const [rejected, setRejected] = useState<string>();
  const [conflict, setConflict] = useState<{ mine: string; theirs: string }>();

  const state = useRef<SaveState>({
    value: serverValue,
    dirty: false,
    saved: serverValue,
    savedRevision: serverRevision,
    inFlight: undefined,
    timer: undefined,
    retries: 0,
    refused: undefined,
    conflict: undefined,
    awaitingServer: false,
  });
  // The latest options, read when a save runs: the callbacks below stay the same across renders.
  const callbacks = useRef({ save, canSave, onSaved, onConflict, onDiscarded, draftKey });
  callbacks.current = { save, canSave, onSaved, onConflict, onDiscarded, draftKey };
  // What the server has now, as this render was given it.
  const server = useRef({ value: serverValue, revision: serverRevision });
  server.current = { value: serverValue, revision: serverRevision };

  /** Shows a value that is not what was typed (a merge, someone else's text) and settles the state. */
  const show = useCallback((next: string) => {
    const s = state.current;
    s.value = next;
    setValue(next);
    const unsaved = next !== s.saved;
    s.dirty = unsaved;
    setDirty(unsaved);
    if (unsaved) keepDraft(callbacks.current.draftKey, s);
    else dropDraft(callbacks.current.draftKey);
  }, []);

  const askToChoose = useCallback((theirs: string, revision: number | undefined) => {
    const s = state.current;
    clearTimer(s);
    s.conflict = { theirs, revision };
    setConflict({ mine: s.value, theirs });
  }, []);

  /**
   * The server has a newer text than the one the value was made from (someone else saved): take
   * it as is when nothing is being edited, else merge the two edits or ask which to keep.
   */
  const reconcile = useCallback(async () => {
    const s = state.current;
    const newer = () => {
      const now = server.current;
      return now.revision === undefined || s.savedRevision === undefined
        ? now.value !== s.saved && now.value !== s.inFlight
        : now.revision > s.savedRevision;
    };
    if (!newer() || s.inFlight !== undefined) return;
    s.awaitingServer = false;
    if (s.conflict) {
      const now = server.current;
      askToChoose(now.value, now.revision);
      return;
    }
    if (!s.dirty || s.value === s.saved) {
      const now = server.current;
      clearTimer(s);
      s.saved = now.value;
      s.savedRevision = now.revision;
      s.retries = 0;
      s.refused = undefined;
      setFailed(false);
      setRejected(undefined);
      show(now.value);
      return;
    }
    const merge = await loadMerge();
    if (!newer() || s.inFlight !== undefined) return;
    const now = server.current;
    const merged = merge(s.saved, s.value, now.value);
    if (merged === undefined) {
      askToChoose(now.value, now.revision);
      return;
    }
    s.saved = now.value;
    s.savedRevision = now.revision;
    show(merged);
    clearTimer(s);
    if (s.dirty) s.timer = setTimeout(() => void runSaveRef.current(), AUTOSAVE_DEBOUNCE_MS);
  }, [show, askToChoose]);

  const runSaveRef = useRef<(keepalive?: boolean) => Promise<void>>(async () => {});
  const runSave = useCallback(
    async (keepalive = false) => {
      const s = state.current;
      clearTimer(s);
      if (!s.dirty || s.inFlight !== undefined || s.conflict || s.awaitingServer) return;
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
        const base = s.saved;
        const answer = await callbacks.current.save(toSend, { keepalive, retry: s.retries > 0, baseRevision: s.savedRevision });
        // A saver that answers nothing kept the text as sent.
        const kept: SavedText = isSavedText(answer) ? answer : { value: toSend };
        // The server merged in what others saved since: undo takes back this save's change only.
        const merge = kept.value === toSend ? undefined : await loadMerge();
        const previous = merge ? (merge(toSend, base, kept.value) ?? base) : base;
        s.saved = kept.value;
        s.savedRevision = kept.revision;
        s.retries = 0;
        s.refused = undefined;
        setFailed(false);
        setRejected(undefined);
        callbacks.current.onSaved?.(kept.value, previous, kept.revision);
        if (s.value === toSend) show(kept.value);
        else if (merge) {
          // Typed more while the save was on its way: that, on top of what the server kept.
          const rebased = merge(toSend, s.value, kept.value);
          if (rebased === undefined) askToChoose(kept.value, kept.revision);
          else show(rebased);
        } else keepDraft(callbacks.current.draftKey, s);
      } catch (error) {
        if (error instanceof ApiError && error.status === 409) {
          // Others changed the same place since: their text is fetched, then merged or the choice asked.
          s.retries = 0;
          s.awaitingServer = true;
          setFailed(false);
          callbacks.current.onConflict?.();
          return;
        }
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
        if (s.dirty && !s.timer && !s.conflict && !s.awaitingServer && s.value !== s.saved && s.value !== s.refused)
          s.timer = setTimeout(() => void runSave(), AUTOSAVE_DEBOUNCE_MS);
        // Someone else saved while this save was on its way.
        void reconcile();
      }
    },
    [show, askToChoose, reconcile],
  );
  runSaveRef.current = runSave;

  // A value from the server that is not the echo of our own save: someone else saved.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the server's value and revision are what changes; reconcile reads them.
  useEffect(() => {
    void reconcile();
  }, [serverValue, serverRevision, reconcile]);

  // Text left unsaved on an earlier visit: take it up again, merged with what the server has now
  // if that changed meanwhile (or, when both changed the same place, with the choice asked).
  useEffect(() => {
    if (!draftKey) return;
    const draft = readDraft(draftKey);
    if (!draft) return;
    const s = state.current;
    if (draft.value === s.saved) {
      clearDraft(draftKey);
      return;
    }
    const restore = (value: string) => {
      show(value);
      clearTimer(s);
      if (s.dirty) s.timer = setTimeout(() => void runSave(), AUTOSAVE_DEBOUNCE_MS);
    };
    if (draft.base === s.saved) {
      restore(draft.value);
      return;
    }
    void loadMerge().then((merge) => {
      if (s.dirty || s.conflict) return; // typing started meanwhile: that wins
      const merged = merge(draft.base, draft.value, s.saved);
      if (merged !== undefined) restore(merged);
      else {
        s.value = draft.value;
        s.dirty = true;
        setValue(draft.value);
        setDirty(true);
        askToChoose(s.saved, s.savedRevision);
      }
    });
  }, [draftKey, runSave, show, askToChoose]);

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
    (typed: string, basedOn?: string) => {
      const s = state.current;
      // Typed over a value older than the current one (a merge not yet on screen): keep both.
      // The merge code is loaded: only a merge moves the value under the editor.
      let next = typed;
      if (basedOn !== undefined && basedOn !== s.value && loadedMerge) {
        const merged = loadedMerge(basedOn, typed, s.value);
        if (merged === undefined) {
          const theirs = s.value;
          s.value = typed;
          setValue(typed);
          askToChoose(theirs, s.savedRevision);
          return;
        }
        next = merged;
      }
      s.value = next;
      s.dirty = true;
      keepDraft(callbacks.current.draftKey, s);
      setValue(next);
      setDirty(true);
      clearTimer(s);
      s.timer = setTimeout(() => void runSave(), AUTOSAVE_DEBOUNCE_MS);
    },
    [runSave, askToChoose],
  );

  const flush = useCallback(() => void runSave(), [runSave]);
  const currentValue = useCallback(() => state.current.value, []);

  const keepMine = useCallback(() => {
    const s = state.current;
    if (!s.conflict) return;
    // Saved over theirs on purpose: its base is their text, and undo brings theirs back.
    s.saved = s.conflict.theirs;
    s.savedRevision = s.conflict.revision;
    s.conflict = undefined;
    setConflict(undefined);
    show(s.value);
    void runSave();
  }, [show, runSave]);
  const keepTheirs = useCallback(() => {
    const s = state.current;
    if (!s.conflict) return;
    const { theirs, revision } = s.conflict;
    callbacks.current.onDiscarded?.(s.value, revision);
    s.saved = theirs;
    s.savedRevision = revision;
    s.conflict = undefined;
    setConflict(undefined);
    show(theirs);
  }, [show]);

  return {
    value,
    dirty,
    saving,
    failed,
    rejected,
    conflict: conflict && { mine: conflict.mine, theirs: conflict.theirs, keepMine, keepTheirs },
    onChange,
    currentValue,
    flush,
  };
}
