/**
 * Every task a worker process can run (run-task.ts), by name. A task takes and answers plain
 * data (structured-clone: objects, arrays, strings, numbers, dates, Uint8Array). Reading an
 * upload needs nothing else; the long work of src/operations opens its own Database where it
 * is told the server's is (workers/database.ts) and writes in short units.
 */
import { importAnkiDeckInWorker } from "../operations/anki-import-task";
import { backupInWorker } from "../operations/backup-task";
import { importVaultInWorker } from "../operations/vault-import-task";

export const workerTasks = {
  /** An uploaded vault merged into a notebook (operations/vault-import-task.ts). */
  "import-obsidian-vault": importVaultInWorker,
  /** An uploaded .apkg read and written as a new notebook (operations/anki-import-task.ts). */
  "import-anki-deck": importAnkiDeckInWorker,
  /** A verified snapshot of the database (operations/backup-task.ts). */
  backup: backupInWorker,
};

export type WorkerTasks = typeof workerTasks;
