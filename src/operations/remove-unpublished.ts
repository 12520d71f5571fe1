import { type OperationsStore, REMOVED_KINDS } from "../store/operations/operations-store";

/**
 * Removes, a batch per unit of work, what a failed operation wrote: its hidden notes (newest
 * first: children and links before what they point at), trackers (their reviews go with them),
 * images, attachments and new notebooks. Answers after the last batch; `pause` runs between
 * batches (the server answers requests there, a worker sleeps a little so other writers get the lock).
 */
export async function removeUnpublished(operations: OperationsStore, operationId: number, pause: () => Promise<void> = async () => {}) {
  for (const kind of REMOVED_KINDS) {
    while ((await operations.removeUnpublishedBatch(operationId, kind)) > 0) await pause();
  }
  await operations.forgetPending(operationId);
}
