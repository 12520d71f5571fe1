/**
 * The worker side of a backup (a worker task, src/workers/tasks.ts): `VACUUM INTO` from the
 * worker's own connection (one read transaction: the server's readers and writers go on in WAL
 * mode), the integrity check of the copy, and the rename, all beside the request loop.
 */
import { openForBackup, type SnapshotResult, snapshot } from "../services/backups/snapshot";

export interface BackupInput {
  dataDir: string;
  /** The snapshot's file (must not exist). */
  target: string;
  now: Date;
}

export function backupInWorker(input: BackupInput): SnapshotResult {
  const db = openForBackup(input.dataDir);
  try {
    return snapshot(db, input.target, input.now);
  } finally {
    db.close();
  }
}
