/**
 * Every task a worker process can run (run-task.ts), by name. A task takes and answers plain
 * data (structured-clone: objects, arrays, strings, numbers, dates, Uint8Array), never a
 * connection or a context: it cannot reach Engram's database.
 */
import { readAnkiPackageFile } from "../services/vaults/read-anki";

export const workerTasks = {
  /** An uploaded .apkg (a temporary file) read into a deck tree. */
  "read-anki-package": readAnkiPackageFile,
};

export type WorkerTasks = typeof workerTasks;
