/**
 * A worker's own connection to Engram's database: the server migrated it already, so this only
 * opens it as the server does (WAL, foreign keys, sqlite-vec for the triggers that need it) with
 * a short busy timeout of its own. A worker writes in short transactions and pauses between them
 * (WORKER_PAUSE_MS), so that the server's writers, which wait on the lock, get it within
 * milliseconds.
 */
import { Database } from "bun:sqlite";
import { loadSqliteVec } from "../db/sqlite-vec";

/** How long a worker rests between two write transactions: a waiting writer of the server gets the lock meanwhile. */
export const WORKER_PAUSE_MS = 4;

/** Longest a worker's write transaction should take; batches are sized to stay under it. */
export const WORKER_TRANSACTION_MS = 25;

export function openWorkerDatabase(file: string): Database {
  const db = new Database(file, { create: false, readwrite: true, strict: true });
  db.run("PRAGMA busy_timeout = 10000");
  db.run("PRAGMA journal_mode = WAL");
  db.run("PRAGMA synchronous = NORMAL");
  db.run("PRAGMA foreign_keys = ON");
  loadSqliteVec(db);
  return db;
}

export const pause = (ms = WORKER_PAUSE_MS) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `step` again and again, each in its own write transaction (BEGIN IMMEDIATE), until it
 * answers false; between two, the worker pauses. Each step should write one batch sized to stay
 * under WORKER_TRANSACTION_MS; `adapt` gets how long each took, for steps that size their batches.
 */
export async function inShortTransactions(db: Database, step: () => boolean, adapt?: (ms: number) => void) {
  for (;;) {
    const started = performance.now();
    const more = db.transaction(step).immediate();
    adapt?.(performance.now() - started);
    if (!more) return;
    await pause();
  }
}
