/**
 * Sends the answers waiting on this device to the server, oldest first, in batches, each with its
 * idempotency key: the server applies each once whatever happens (a reply lost, a retry, two tabs
 * syncing at once), and the queue keeps every answer until the server has answered for it. Tabs
 * of one browser also take turns (Web Locks), so they do not send the same answers at once.
 */
import { api, call } from "../api";
import { type OfflineAnswerOutcome, type OfflineDb, type QueuedAnswer, type SyncReport, settle, waitingAnswers } from "./offline-store";

/** At most this many answers per request (the server's limit). */
export const SYNC_BATCH = 100;

export type SendAnswers = (answers: QueuedAnswer[]) => Promise<OfflineAnswerOutcome[]>;

export interface SyncResult {
  sent: number;
  applied: number;
  reported: SyncReport[];
  /** Why it stopped before the queue was empty (no network, signed out...), if it did. */
  error?: unknown;
}

/** One sync at a time per account in this browser; without Web Locks, the server's keys still count each answer once. */
function exclusively<T>(owner: string, run: () => Promise<T>): Promise<T> {
  const locks = typeof navigator === "undefined" ? undefined : (navigator as Navigator & { locks?: LockManager }).locks;
  return locks ? (locks.request(`engram-offline-sync-${owner}`, run) as Promise<T>) : run();
}

export function syncQueue(owner: string, db: OfflineDb, send: SendAnswers): Promise<SyncResult> {
  return exclusively(owner, async () => {
    const result: SyncResult = { sent: 0, applied: 0, reported: [] };
    for (;;) {
      const batch = await waitingAnswers(db, SYNC_BATCH);
      if (batch.length === 0) return result;
      // What goes on the wire is the answer alone (its label stays on the device).
      let outcomes: OfflineAnswerOutcome[];
      try {
        outcomes = await send(batch);
      } catch (error) {
        return { ...result, error };
      }
      result.sent += batch.length;
      const settled = await settle(db, outcomes);
      result.applied += settled.applied;
      result.reported.push(...settled.reported);
      // An answer the server said nothing about would be sent forever: stop, and try again later.
      if (!batch.every((answer) => outcomes.some((o) => o.idempotencyKey === answer.idempotencyKey))) {
        return { ...result, error: new Error("Some answers got no outcome") };
      }
    }
  });
}

/** The answer as the server takes it (POST /api/recalls/offline-answers). */
export const wireAnswer = ({ idempotencyKey, memoryTrackerId, answeredAt, thinkingTimeMs, answer }: QueuedAnswer) => ({
  idempotencyKey,
  memoryTrackerId,
  answeredAt,
  thinkingTimeMs,
  answer,
});

/** POST /api/recalls/offline-answers: quietly (the recall page says what happened), and no sign-in redirect. */
export const sendAnswers: SendAnswers = async (answers) =>
  (await call(api.recalls["offline-answers"].post({ answers: answers.map(wireAnswer) }), { silent: true, onUnauthorized: () => {} }))
    .outcomes;
