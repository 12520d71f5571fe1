/**
 * The recall session of one browser tab: the list to repeat, the position in it and the results
 * so far. It is plain data kept in sessionStorage, so leaving /d/recall and coming back (the
 * spec keeps the page alive) resumes where the learner was.
 */

import type { DueMemoryTrackersJson, MemoryTrackerLite } from "../../src/services/memory/recall-list";
import { spreadSameNote } from "../../src/services/memory/spread-same-note";
import type { NoteJson } from "../lib/notes-queries";
import type { AnsweredQuestionJson, SpellingResultJson } from "../lib/recall/recall-prompt-types";

export type { DueMemoryTrackersJson, MemoryTrackerLite } from "../../src/services/memory/recall-list";

export type RecallResult =
  | { type: "question"; answeredQuestion: AnsweredQuestionJson }
  | { type: "spelling"; spellingResult: SpellingResultJson }
  | { type: "review"; note?: NoteJson; successful: boolean };

export interface RecallSession {
  toRepeat: MemoryTrackerLite[];
  currentIndex: number;
  /** Everything finished in this tab, across "load more" lists. */
  previousResults: RecallResult[];
  /** The result being looked at ("paused"), or null while recalling. */
  resultCursor: number | null;
  recallWindowEndAt: string;
  totalAssimilatedCount: number;
  /** How many days ahead the list reaches (0: this half-day; 3, 7 or 14 after "Load more"): the device keeps that list. */
  lookAheadDays?: number;
}

export const emptySession = (): RecallSession => ({
  toRepeat: [],
  currentIndex: 0,
  previousResults: [],
  resultCursor: null,
  recallWindowEndAt: new Date(0).toISOString(),
  totalAssimilatedCount: 0,
});

/** Fisher–Yates with Math.random (the order only matters to the learner). */
export function shuffled<T>(items: T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

/**
 * A freshly loaded list replaces the one being recalled; results stay. The shuffle may put a
 * note's items side by side again (its review would give its spelling away): they are parted.
 */
export function withLoadedList(session: RecallSession, due: DueMemoryTrackersJson, shuffle: boolean): RecallSession {
  return {
    ...session,
    toRepeat: spreadSameNote(shuffle ? shuffled(due.toRepeat) : due.toRepeat),
    currentIndex: 0,
    resultCursor: null,
    recallWindowEndAt: due.recallWindowEndAt ?? session.recallWindowEndAt,
    totalAssimilatedCount: due.totalAssimilatedCount,
    lookAheadDays: due.dueInDays ?? 0,
  };
}

export const remainingCount = (s: RecallSession) => Math.max(0, s.toRepeat.length - s.currentIndex);
export const currentTracker = (s: RecallSession): MemoryTrackerLite | undefined => s.toRepeat[s.currentIndex];

/** The current item goes to the back of the list; the position stays, so the next one shows. */
export function movedToEnd(s: RecallSession): RecallSession {
  if (s.currentIndex >= s.toRepeat.length - 1) return s;
  const item = s.toRepeat[s.currentIndex]!;
  return { ...s, toRepeat: [...s.toRepeat.slice(0, s.currentIndex), ...s.toRepeat.slice(s.currentIndex + 1), item] };
}

/** An item is done: the next one comes, and a wrong answer is shown at once ("paused" on it). */
export function withFinished(s: RecallSession, result: RecallResult, pause: boolean): RecallSession {
  const previousResults = [...s.previousResults, result];
  return { ...s, currentIndex: s.currentIndex + 1, previousResults, resultCursor: pause ? previousResults.length - 1 : null };
}

/** An item that cannot be recalled any more (its tracker is gone) is passed over without a result. */
export const withSkipped = (s: RecallSession): RecallSession => ({ ...s, currentIndex: s.currentIndex + 1 });

export function isWindowOver(s: RecallSession, now: number): boolean {
  return now > Date.parse(s.recallWindowEndAt);
}

/** One session per signed-in identity, so another account in the same tab starts afresh. */
const storageKey = (owner: string) => `engram.recall-session.${owner}`;

export function loadSession(owner: string): RecallSession | undefined {
  try {
    const text = sessionStorage.getItem(storageKey(owner));
    if (!text) return undefined;
    const parsed = JSON.parse(text) as RecallSession;
    return Array.isArray(parsed.toRepeat) && Array.isArray(parsed.previousResults) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export function saveSession(owner: string, session: RecallSession) {
  try {
    sessionStorage.setItem(storageKey(owner), JSON.stringify(session));
  } catch {
    // Storage full or disabled: the session still works until the page is left.
  }
}

/** Signing out: this tab's session of the account goes. */
export function forgetSession(owner: string) {
  try {
    sessionStorage.removeItem(storageKey(owner));
  } catch {
    // Storage disabled: nothing was kept.
  }
}
