/**
 * A worker's pace on Engram's database: its own Database (store/worker-database.ts) writes in
 * short units and pauses between them (WORKER_PAUSE_MS), so that the server's writers, which
 * wait on the lock, get it within milliseconds.
 */
export type { DatabasePlace } from "../store/database-place";
export { openWorkerDatabase, type WorkerDatabase } from "../store/worker-database";

/** How long a worker rests between two write transactions: a waiting writer of the server gets the lock meanwhile. */
export const WORKER_PAUSE_MS = 4;

/** Longest a worker's write transaction should take; batches are sized to stay under it. */
export const WORKER_TRANSACTION_MS = 25;

export const pause = (ms = WORKER_PAUSE_MS) => new Promise<void>((resolve) => setTimeout(resolve, ms));
