import { useSyncExternalStore } from "react";

/**
 * The undo history of spec 4 "Undo": each title or details edit pushes the previous text, each
 * delete pushes a delete entry. Kept in sessionStorage, so it survives moving between pages in
 * the same tab, and shared by every island of a page (the note editor pushes, the top-bar undo
 * button pops).
 */
export type UndoType = "edit title" | "edit details" | "delete note";

export interface UndoEntry {
  type: UndoType;
  noteId: number;
  textContent?: string;
  /**
   * The revision the edit produced: undo is a save of textContent made from it, so the server
   * keeps what others saved since (or refuses when they changed the same place).
   */
  baseRevision?: number;
}

const STORAGE_KEY = "engram.undo-history";
const MAX_ENTRIES = 100;
const listeners = new Set<() => void>();
let cache: UndoEntry[] | undefined;

function read(): UndoEntry[] {
  if (cache) return cache;
  try {
    cache = typeof sessionStorage === "undefined" ? [] : (JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? "[]") as UndoEntry[]);
  } catch {
    cache = [];
  }
  return cache;
}

function write(entries: UndoEntry[]) {
  cache = entries.slice(-MAX_ENTRIES);
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(cache));
  } catch {
    // storage full or disabled: the history still works for this page
  }
  for (const listener of listeners) listener();
}

export function pushUndo(entry: UndoEntry) {
  write([...read(), entry]);
}

/** Removes and answers the last entry; throws "undo history is empty" when there is none. */
export function popUndo(): UndoEntry {
  const entries = read();
  const last = entries.at(-1);
  if (!last) throw new Error("undo history is empty");
  write(entries.slice(0, -1));
  return last;
}

export function peekUndo(): UndoEntry | undefined {
  return read().at(-1);
}

const EMPTY: UndoEntry[] = [];

/** The history, re-rendering on change. On the server (and before hydration) it is empty. */
export function useUndoHistory(): UndoEntry[] {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    read,
    () => EMPTY,
  );
}

/** Forgets the cached copy (tests). */
export function resetUndoHistoryCache() {
  cache = undefined;
}
