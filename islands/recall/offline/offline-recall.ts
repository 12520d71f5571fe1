/**
 * Recall without the network, as the recall page uses it: the device's copy of the list and its
 * questions (kept fresh while online), answers given offline judged here at once from that copy
 * and queued with their moment and thinking time, and the sync of that queue when the network
 * is back. The page's status line reads `offlineStatus()`. Loaded by the recall island only.
 */
import { clozeAnswerOf } from "../../../src/services/spelling/cloze-answer";
import { matchesTitle } from "../../../src/services/spelling/title-fragments";
import { api, call } from "../../lib/api";
import { timeZone } from "../../lib/learning-queries";
import { noteTitleText } from "../../lib/note-title";
import type { NoteJson } from "../../lib/notes-queries";
import {
  allReports,
  clearReports,
  doneTrackers,
  loadPack,
  markDone,
  type OfflineDb,
  type OfflineItemJson,
  type OfflinePackJson,
  openOfflineDb,
  type QueuedAnswer,
  queueAnswer,
  type SyncReport,
  savePack,
  waitingCount,
} from "../../lib/offline/offline-store";
import { type SyncResult, sendAnswers, syncQueue } from "../../lib/offline/sync-queue";
import { setReportsFlag, setWaitingFlag } from "../../lib/offline/waiting-flag";
import type { AnsweredQuestionJson, RecallPromptJson, SpellingResultJson } from "../../lib/recall/recall-prompt-types";
import { type RecallSession, withLoadedList } from "../recall-session";
import type { TrackerQuestion } from "../tracker-question";

export interface OfflineStatus {
  /** The last request could not reach the server (or the browser says it is offline). */
  offline: boolean;
  waiting: number;
  syncing: boolean;
  /** Answers counted by the server at the last sync that sent any. */
  lastSynced: number;
  reports: SyncReport[];
  /** Items left out offline because their question needs the AI and was not made yet. */
  skipped: number;
}

let owner: string | undefined;
let status: OfflineStatus = { offline: false, waiting: 0, syncing: false, lastSynced: 0, reports: [], skipped: 0 };
const listeners = new Set<() => void>();

function update(changes: Partial<OfflineStatus>) {
  status = { ...status, ...changes };
  if (owner && changes.waiting !== undefined) setWaitingFlag(owner, changes.waiting > 0);
  if (owner && changes.reports !== undefined) setReportsFlag(owner, changes.reports.length > 0);
  for (const listener of listeners) listener();
}

export const offlineStatus = () => status;
export function subscribeOfflineStatus(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const database = (): Promise<OfflineDb> | undefined => (owner ? openOfflineDb(owner) : undefined);

/** The signed-in account whose device copy the page uses; reads its waiting answers and reports. */
let started: Promise<void> | undefined;
export function startOfflineRecall(account: string): Promise<void> {
  if (!account) return Promise.resolve();
  if (owner === account && started) return started;
  owner = account;
  started = (async () => {
    const db = await openOfflineDb(account);
    update({ waiting: await waitingCount(db), reports: await allReports(db) });
    if (status.waiting > 0 && navigator.onLine) await syncNow();
  })();
  return started;
}

/** An item passed over offline (its question needs the network). */
export function noteSkipped() {
  update({ skipped: status.skipped + 1 });
}

export function setOffline(offline: boolean) {
  if (status.offline !== offline) update({ offline });
}

let packDays: number | undefined;
let again: ReturnType<typeof setTimeout> | undefined;

/** Online, after the list loaded: the device's copy of it (and its questions) is renewed. */
export async function refreshPack(dueInDays: number) {
  const db = await database();
  if (!db) return;
  packDays = dueInDays;
  const pack: OfflinePackJson = await call(api.recalls["offline-pack"].get({ query: { timezone: timeZone(), dueindays: dueInDays } }), {
    silent: true,
    onUnauthorized: () => {},
  });
  await savePack(db, pack);
}

/** Questions were made meanwhile: the copy is renewed once they have settled (at most once a second). */
export function refreshPackAgain() {
  if (packDays === undefined || !navigator.onLine) return;
  clearTimeout(again);
  again = setTimeout(() => void refreshPack(packDays ?? 0).catch(() => {}), 1000);
}

/**
 * Offline: the recall session from the device's copy: its list without what was answered since
 * it was saved and without the questions that need the AI. Undefined when there is no copy.
 */
export async function offlineSession(base: RecallSession): Promise<RecallSession | undefined> {
  const db = await database();
  const pack = db && (await loadPack(db));
  if (!db || !pack) return undefined;
  const done = await doneTrackers(db);
  const items = new Map(pack.items.map((item) => [item.memoryTrackerId, item]));
  const open = pack.toRepeat.filter((t) => !done.has(t.memoryTrackerId) && items.has(t.memoryTrackerId));
  const toRepeat = open.filter((t) => items.get(t.memoryTrackerId)!.kind !== "needs-ai");
  update({ skipped: open.length - toRepeat.length });
  // Kept in the pack's order: it is already parted by note, and offline is no time to shuffle.
  return withLoadedList(base, { ...pack, toRepeat, toRepeatCount: toRepeat.length }, false);
}

async function item(memoryTrackerId: number): Promise<OfflineItemJson | undefined> {
  const db = await database();
  return db ? (await loadPack(db))?.items.find((i) => i.memoryTrackerId === memoryTrackerId) : undefined;
}

/** The question of a tracker from the device's copy (the question query's fallback offline). */
export async function offlineQuestion(memoryTrackerId: number, spelling: boolean): Promise<TrackerQuestion> {
  const found = await item(memoryTrackerId);
  if (!found) return { kind: "unavailable" };
  if (spelling || found.kind === "spelling") return { kind: "spelling", question: found.spellingQuestion ?? null };
  if (found.kind === "multiple-choice" && found.prompt) return { kind: "choice", prompt: found.prompt };
  if (found.kind === "needs-ai") return { kind: "needs-ai" };
  return { kind: "choice", prompt: null };
}

/** The note of a tracker from the device's copy (the self-review offline). */
export async function offlineNote(memoryTrackerId: number): Promise<NoteJson | undefined> {
  return (await item(memoryTrackerId))?.note;
}

/** An answer given online: offline, its tracker is not asked again from the device's copy. */
export async function rememberDone(memoryTrackerId: number) {
  const db = await database();
  if (db) await markDone(db, memoryTrackerId, new Date());
}

async function enqueue(answer: Omit<QueuedAnswer, "label">, found: OfflineItemJson | undefined) {
  const db = await database();
  if (!db) throw new Error("Recall is not kept on this device");
  const label = found ? noteTitleText(found.note.noteTopology) : `Memory tracker ${answer.memoryTrackerId}`;
  await queueAnswer(db, { ...answer, label });
  update({ waiting: await waitingCount(db), offline: true });
}

interface Given {
  memoryTrackerId: number;
  idempotencyKey: string;
  answeredAt: Date;
  thinkingTimeMs?: number;
}

const common = (given: Given) => ({
  idempotencyKey: given.idempotencyKey,
  memoryTrackerId: given.memoryTrackerId,
  answeredAt: given.answeredAt.toISOString(),
  thinkingTimeMs: given.thinkingTimeMs ?? null,
});

/** A choice offline: judged from the copy's correct index, queued; shown as the server would show it. */
export async function answerQuestionOffline(given: Given, prompt: RecallPromptJson, choiceIndex: number): Promise<AnsweredQuestionJson> {
  const found = await item(given.memoryTrackerId);
  if (!found || found.correctChoiceIndex === undefined) throw new Error("This question is not kept on this device");
  await enqueue({ ...common(given), answer: { type: "multiple-choice", recallPromptId: prompt.id, choiceIndex } }, found);
  const question = prompt.multipleChoicesQuestion;
  return {
    note: found.note,
    predefinedQuestion: { id: 0, multipleChoicesQuestion: question, correctAnswerIndex: found.correctChoiceIndex, approved: false },
    answer: { id: prompt.id, choiceIndex, correct: choiceIndex === found.correctChoiceIndex },
    answerDisplay: question.choices[choiceIndex] ?? "",
    recallPromptId: prompt.id,
  };
}

/** A spelling offline: judged by the server's own rule (the cloze answer, else the title), queued. */
export async function answerSpellingOffline(given: Given, spellingAnswer: string): Promise<SpellingResultJson> {
  const found = await item(given.memoryTrackerId);
  if (!found) throw new Error("This question is not kept on this device");
  await enqueue({ ...common(given), answer: { type: "spelling", spellingAnswer } }, found);
  return {
    note: found.note,
    answer: spellingAnswer,
    isCorrect: matchesTitle(clozeAnswerOf(found.note.details) ?? found.note.noteTopology.titleOrPredicate, spellingAnswer),
  };
}

export async function markAsRepeatedOffline(given: Given, successful: boolean) {
  await enqueue({ ...common(given), answer: { type: "self-review", successful } }, await item(given.memoryTrackerId));
}

let running: Promise<SyncResult | undefined> | undefined;

/** Sends what waits, if anything; says whether the server could be reached. */
export function syncNow(): Promise<SyncResult | undefined> {
  running ??= (async () => {
    const db = await database();
    if (!db || !owner || (await waitingCount(db)) === 0) return undefined;
    update({ syncing: true });
    try {
      const result = await syncQueue(owner, db, sendAnswers);
      update({
        waiting: await waitingCount(db),
        reports: await allReports(db),
        ...(result.sent > 0 ? { lastSynced: result.applied } : {}),
        ...(result.error === undefined ? { offline: false } : {}),
      });
      return result;
    } finally {
      update({ syncing: false });
      running = undefined;
    }
  })();
  return running;
}

export async function dismissReports() {
  const db = await database();
  if (db) await clearReports(db);
  update({ reports: [], lastSynced: 0 });
}
