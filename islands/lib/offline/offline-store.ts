/**
 * What one account keeps on this device for recall without the network, in IndexedDB (one
 * database per account, so another account on the same browser never reads it):
 * - `pack`: the last recall list with its questions (services/memory/offline-pack.ts);
 * - `done`: trackers answered since that pack was saved (online or offline), left out offline;
 * - `queue`: answers given offline, in the order given, until the server has them;
 * - `reports`: answers the server could not count, until the learner has read why.
 */
import { type DBSchema, deleteDB, type IDBPDatabase, openDB } from "idb";
import type { OfflineAnswer, OfflineAnswerOutcome, OfflineAnswerStatus } from "../../../src/services/memory/offline-answers";
import type { OfflinePackJson } from "../../../src/services/memory/offline-pack";
import { databaseName } from "./waiting-flag";

export type { OfflineAnswer, OfflineAnswerOutcome } from "../../../src/services/memory/offline-answers";
export type { OfflineItemJson, OfflinePackJson } from "../../../src/services/memory/offline-pack";

/** An answer waiting on this device; `label` names its note for a report. */
export interface QueuedAnswer extends OfflineAnswer {
  seq?: number;
  label: string;
}

/** An answer the server did not count, and why. */
export interface SyncReport {
  id?: number;
  status: Exclude<OfflineAnswerStatus, "applied">;
  label: string;
  answeredAt: string;
  message?: string;
}

interface OfflineSchema extends DBSchema {
  pack: { key: string; value: { id: string; pack: OfflinePackJson } };
  done: { key: number; value: { memoryTrackerId: number; at: string } };
  queue: { key: number; value: QueuedAnswer; indexes: { byKey: string } };
  reports: { key: number; value: SyncReport };
}

export type OfflineDb = IDBPDatabase<OfflineSchema>;

export { databaseName } from "./waiting-flag";

const opened = new Map<string, Promise<OfflineDb>>();

export function openOfflineDb(owner: string): Promise<OfflineDb> {
  let db = opened.get(owner);
  if (!db) {
    db = openDB<OfflineSchema>(databaseName(owner), 1, {
      upgrade(database) {
        database.createObjectStore("pack", { keyPath: "id" });
        database.createObjectStore("done", { keyPath: "memoryTrackerId" });
        database
          .createObjectStore("queue", { keyPath: "seq", autoIncrement: true })
          .createIndex("byKey", "idempotencyKey", { unique: true });
        database.createObjectStore("reports", { keyPath: "id", autoIncrement: true });
      },
      // Another tab deletes the database (signing out): let it, and open afresh next time.
      blocking(_current, _next, event) {
        (event.target as IDBDatabase).close();
        opened.delete(owner);
      },
    });
    opened.set(owner, db);
  }
  return db;
}

/** A new pack replaces the last one; what was done against the last one no longer matters. */
export async function savePack(db: OfflineDb, pack: OfflinePackJson) {
  const tx = db.transaction(["pack", "done"], "readwrite");
  await Promise.all([tx.objectStore("pack").put({ id: "list", pack }), tx.objectStore("done").clear(), tx.done]);
}

export async function loadPack(db: OfflineDb): Promise<OfflinePackJson | undefined> {
  return (await db.get("pack", "list"))?.pack;
}

export async function markDone(db: OfflineDb, memoryTrackerId: number, at: Date) {
  await db.put("done", { memoryTrackerId, at: at.toISOString() });
}

export async function doneTrackers(db: OfflineDb): Promise<Set<number>> {
  return new Set((await db.getAllKeys("done")).map(Number));
}

/** Queues an answer (after the ones already waiting) and marks its tracker done, in one transaction. */
export async function queueAnswer(db: OfflineDb, answer: QueuedAnswer) {
  const tx = db.transaction(["queue", "done"], "readwrite");
  await Promise.all([
    tx.objectStore("queue").add(answer),
    tx.objectStore("done").put({ memoryTrackerId: answer.memoryTrackerId, at: answer.answeredAt }),
    tx.done,
  ]);
}

/** The first `limit` answers waiting, in the order they were given. */
export async function waitingAnswers(db: OfflineDb, limit: number): Promise<QueuedAnswer[]> {
  return db.getAll("queue", undefined, limit);
}

export async function waitingCount(db: OfflineDb): Promise<number> {
  return db.count("queue");
}

/**
 * The server's outcomes for sent answers: each answer leaves the queue, and one that was not
 * counted becomes a report. An answer already gone from the queue (another tab settled it) adds
 * no second report.
 */
export async function settle(db: OfflineDb, outcomes: OfflineAnswerOutcome[]): Promise<{ applied: number; reported: SyncReport[] }> {
  const tx = db.transaction(["queue", "reports"], "readwrite");
  const queue = tx.objectStore("queue");
  const reports = tx.objectStore("reports");
  let applied = 0;
  const reported: SyncReport[] = [];
  for (const outcome of outcomes) {
    const seq = await queue.index("byKey").getKey(outcome.idempotencyKey);
    if (seq === undefined) continue;
    const answer = (await queue.get(seq))!;
    await queue.delete(seq);
    if (outcome.status === "applied") {
      applied++;
      continue;
    }
    const report: SyncReport = { status: outcome.status, label: answer.label, answeredAt: answer.answeredAt, message: outcome.message };
    await reports.add(report);
    reported.push(report);
  }
  await tx.done;
  return { applied, reported };
}

export async function allReports(db: OfflineDb): Promise<SyncReport[]> {
  return db.getAll("reports");
}

export async function clearReports(db: OfflineDb) {
  await db.clear("reports");
}

/** Everything this account kept on this device goes (signing out). */
export async function deleteOfflineDb(owner: string) {
  const db = opened.get(owner);
  opened.delete(owner);
  if (db) (await db).close();
  await deleteDB(databaseName(owner));
}
