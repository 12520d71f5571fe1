/**
 * The operations table (long work run by worker processes, see src/operations) and the rows an
 * operation wrote but has not published yet. Plain functions over one bun:sqlite connection:
 * the server's, or a worker's own. Every write is one short transaction. Leases are wall-clock
 * milliseconds (Date.now()), so that test time travel never ends a worker's lease.
 */
import type { Database } from "bun:sqlite";

export type OperationKind = "obsidian-import" | "anki-import" | "backup";
export type OperationStatus = "running" | "done" | "failed";
export type OperationPhase = "waiting" | "reading" | "writing" | "publishing";

export interface OperationRow {
  id: number;
  kind: OperationKind;
  userId: number;
  notebookId: number | null;
  label: string;
  status: OperationStatus;
  phase: OperationPhase;
  done: number;
  total: number | null;
  result: string | null;
  error: string | null;
  leaseUntil: number;
  createdAt: number;
  updatedAt: number;
  finishedAt: number | null;
  dismissedAt: number | null;
}

const COLUMNS = `id, kind, user_id AS userId, notebook_id AS notebookId, label, status, phase, done, total, result, error,
  lease_until AS leaseUntil, created_at AS createdAt, updated_at AS updatedAt, finished_at AS finishedAt, dismissed_at AS dismissedAt`;

/** How long a worker holds an operation without renewing (it renews with every batch it writes). */
export const OPERATION_LEASE_MS = 60_000;

export interface NewOperation {
  kind: OperationKind;
  userId: number;
  notebookId?: number | null;
  label: string;
}

/**
 * Starts an operation; answers undefined when another one is running into the same notebook
 * (the partial unique index decides, so two requests at once never both start).
 */
export function startOperation(db: Database, operation: NewOperation, now: number): OperationRow | undefined {
  try {
    return db
      .query<OperationRow, [string, number, number | null, string, number, number, number]>(
        `INSERT INTO operations (kind, user_id, notebook_id, label, status, phase, done, lease_until, created_at, updated_at)
         VALUES (?, ?, ?, ?, 'running', 'waiting', 0, ?, ?, ?) RETURNING ${COLUMNS}`,
      )
      .get(operation.kind, operation.userId, operation.notebookId ?? null, operation.label, Date.now() + OPERATION_LEASE_MS, now, now)!;
  } catch (error) {
    if ((error as { code?: string }).code === "SQLITE_CONSTRAINT_UNIQUE") return undefined;
    throw error;
  }
}

export function findOperation(db: Database, id: number): OperationRow | undefined {
  return db.query<OperationRow, [number]>(`SELECT ${COLUMNS} FROM operations WHERE id = ?`).get(id) ?? undefined;
}

/** The user's operations still to show: running, or finished and not dismissed (newest first). */
export function visibleOperations(db: Database, userId: number): OperationRow[] {
  return db
    .query<OperationRow, [number]>(`SELECT ${COLUMNS} FROM operations WHERE user_id = ? AND dismissed_at IS NULL ORDER BY id DESC LIMIT 20`)
    .all(userId);
}

/** The running operation into a notebook, if any. */
export function runningIntoNotebook(db: Database, notebookId: number): OperationRow | undefined {
  return (
    db.query<OperationRow, [number]>(`SELECT ${COLUMNS} FROM operations WHERE notebook_id = ? AND status = 'running'`).get(notebookId) ??
    undefined
  );
}

export function dismissOperation(db: Database, id: number, now: number) {
  db.query("UPDATE operations SET dismissed_at = ? WHERE id = ? AND status <> 'running' AND dismissed_at IS NULL").run(now, id);
}

export interface Progress {
  phase: OperationPhase;
  done: number;
  total?: number | null;
}

/**
 * Records progress and renews the lease (call it inside the batch's own transaction, so it
 * costs nothing more). Answers false when the operation is no longer running (it was failed by
 * someone who saw its lease run out): the worker must stop.
 */
export function recordProgress(db: Database, id: number, progress: Progress, now: number): boolean {
  const changed = db
    .query(
      `UPDATE operations SET phase = ?, done = ?, total = COALESCE(?, total), lease_until = ?, updated_at = ?
       WHERE id = ? AND status = 'running'`,
    )
    .run(progress.phase, progress.done, progress.total ?? null, Date.now() + OPERATION_LEASE_MS, now, id).changes;
  return changed === 1;
}

/** Marks the operation done with its report (inside the publishing transaction); false when it was not running. */
export function finishOperation(db: Database, id: number, result: unknown, now: number): boolean {
  return (
    db
      .query(
        `UPDATE operations SET status = 'done', phase = 'publishing', result = ?, finished_at = ?, updated_at = ?
         WHERE id = ? AND status = 'running'`,
      )
      .run(JSON.stringify(result), now, now, id).changes === 1
  );
}

/** Marks the operation failed with the reason the user reads (its unpublished rows are removed by removeUnpublished). */
export function failOperation(db: Database, id: number, error: string, now: number) {
  db.query(`UPDATE operations SET status = 'failed', error = ?, finished_at = ?, updated_at = ? WHERE id = ? AND status = 'running'`).run(
    error.slice(0, 2000),
    now,
    now,
    id,
  );
}

/** Running operations whose worker stopped renewing (the process died): to fail and clean up. */
export function abandonedOperations(db: Database): OperationRow[] {
  return db.query<OperationRow, [number]>(`SELECT ${COLUMNS} FROM operations WHERE status = 'running' AND lease_until < ?`).all(Date.now());
}

/**
 * note: hidden until published; image; attachment: a notebook's file, under a staged path key
 * until published; tracker: its reviews stay out of the aggregates; activate: a tracker to put
 * into recall; notebook: a new notebook.
 */
export type PendingKind = "note" | "image" | "attachment" | "tracker" | "activate" | "notebook";

/** Lists rows the operation wrote but has not published (inside the batch that wrote them). */
export function recordPending(db: Database, operationId: number, kind: PendingKind, rowIds: number[]) {
  const insert = db.query("INSERT INTO operation_rows (operation_id, kind, row_id) VALUES (?, ?, ?)");
  for (const rowId of rowIds) insert.run(operationId, kind, rowId);
}

/** Rows removed per transaction when an operation's unpublished rows are removed. */
const REMOVE_BATCH = 500;

/**
 * Removes, a batch per transaction, what a failed operation wrote: its hidden notes (newest
 * first: children and links before what they point at), trackers (their reviews go with them),
 * images and attachments. Answers after the last batch; `pause` runs between batches (a worker sleeps a
 * little there so that other writers get the lock).
 */
export async function removeUnpublished(db: Database, operationId: number, pause: () => Promise<void> = async () => {}) {
  // A new notebook lets go of its head note first (the notes are removed in batches, not by its cascade).
  db.run(
    "UPDATE notebooks SET head_note_id = NULL WHERE id IN (SELECT row_id FROM operation_rows WHERE operation_id = ? AND kind = 'notebook')",
    [operationId],
  );
  const tables = {
    tracker: "memory_trackers",
    note: "notes",
    image: "note_images",
    attachment: "notebook_attachments",
    notebook: "notebooks",
  } as const;
  for (const kind of ["tracker", "note", "image", "attachment", "notebook"] as const) {
    const table = tables[kind];
    for (;;) {
      const removed = db.transaction(() => {
        const ids = db
          .query<{ rowId: number }, [number, string, number]>(
            "SELECT row_id AS rowId FROM operation_rows WHERE operation_id = ? AND kind = ? ORDER BY row_id DESC LIMIT ?",
          )
          .all(operationId, kind, REMOVE_BATCH)
          .map((row) => row.rowId);
        if (ids.length === 0) return 0;
        const list = ids.join(",");
        if (kind === "note") {
          // Images an unpublished note points at go with it only when they are the operation's own.
          db.run(`UPDATE notes SET image_id = NULL WHERE id IN (${list})`);
        }
        db.run(`DELETE FROM ${table} WHERE id IN (${list})`);
        db.query(`DELETE FROM operation_rows WHERE operation_id = ? AND kind = ? AND row_id IN (${list})`).run(operationId, kind);
        return ids.length;
      })();
      if (removed === 0) break;
      await pause();
    }
  }
  db.query("DELETE FROM operation_rows WHERE operation_id = ?").run(operationId);
}
