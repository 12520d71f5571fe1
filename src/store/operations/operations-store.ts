/**
 * The operations table (long work run by worker processes, see src/operations) and the rows an
 * operation wrote but has not published yet (operation_rows). The server calls these through
 * `ctx.stores.operations`; a worker through the stores of its own connection. Every write is one
 * short unit. Leases are wall-clock milliseconds, passed in by the caller (Date.now(), never the
 * test clock), so that test time travel never ends a worker's lease.
 */
import { and, desc, eq, inArray, isNull, lt, ne, sql } from "drizzle-orm";
import { defineStore, read, type StoreOf, write } from "../define";
import { publishImportedTrackers, removeTrackers } from "../memory/memory-import";
import {
  publishStagedAttachments,
  releaseHeadNotes,
  removeAttachments,
  removeImages,
  removeNotebooks,
  removeNotes,
  showHiddenNotes,
} from "../notes/notes-import";
import { all, byDialect, one, prepared, run, type Session, type Step } from "../session";
import { emptyEveryTable as emptyEveryTableOnPostgres } from "./reset-postgres";
import { emptyEveryTable as emptyEveryTableOnSqlite } from "./reset-sqlite";

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

/** How long a worker holds an operation without renewing (it renews with every batch it writes). */
export const OPERATION_LEASE_MS = 60_000;

export interface NewOperation {
  kind: OperationKind;
  userId: number;
  notebookId?: number | null;
  label: string;
}

export interface Progress {
  phase: OperationPhase;
  done: number;
  total?: number | null;
}

/**
 * note: hidden until published; image; attachment: a notebook's file, under a staged path key
 * until published; tracker: its reviews stay out of the aggregates; activate: a tracker to put
 * into recall; notebook: a new notebook.
 */
export type PendingKind = "note" | "image" | "attachment" | "tracker" | "activate" | "notebook";

type Stored = typeof import("../../db/schema").operations.$inferSelect;

const ms = (date: Date | null) => (date === null ? null : date.getTime());

function rowOf(stored: Stored): OperationRow {
  return {
    ...stored,
    kind: stored.kind as OperationKind,
    status: stored.status as OperationStatus,
    phase: stored.phase as OperationPhase,
    createdAt: stored.createdAt.getTime(),
    updatedAt: stored.updatedAt.getTime(),
    finishedAt: ms(stored.finishedAt),
    dismissedAt: ms(stored.dismissedAt),
  };
}

/**
 * Starts an operation holding its lease until `leaseUntil` (wall clock); answers undefined when
 * another one is running into the same notebook (the partial unique index decides, so two
 * requests at once never both start).
 */
export function* start(s: Session, operation: NewOperation, now: number, leaseUntil: number): Step<OperationRow | undefined> {
  const { operations } = s.t;
  const at = new Date(now);
  const [stored] = yield* all(
    s,
    s.db
      .insert(operations)
      .values({
        kind: operation.kind,
        userId: operation.userId,
        notebookId: operation.notebookId ?? null,
        label: operation.label,
        status: "running",
        phase: "waiting",
        done: 0,
        leaseUntil,
        createdAt: at,
        updatedAt: at,
      })
      .onConflictDoNothing()
      .returning(),
  );
  return stored ? rowOf(stored) : undefined;
}

export function* find(s: Session, id: number): Step<OperationRow | undefined> {
  const { operations } = s.t;
  const stored = yield* one(s, s.db.select().from(operations).where(eq(operations.id, id)));
  return stored ? rowOf(stored) : undefined;
}

/**
 * The user's operations still to show: running, or finished and not dismissed (newest first).
 * Every page's shell lists them: a prepared statement.
 */
export function* visible(s: Session, userId: number): Step<OperationRow[]> {
  const query = prepared(s, "visible-operations", () => {
    const { operations } = s.t;
    return s.db
      .select()
      .from(operations)
      .where(and(eq(operations.userId, sql.placeholder("userId")), isNull(operations.dismissedAt)))
      .orderBy(desc(operations.id))
      .limit(20);
  });
  const rows = yield* all(s, query, { userId });
  return rows.map(rowOf);
}

/** The running operation into a notebook, if any. */
export function* runningIntoNotebook(s: Session, notebookId: number): Step<OperationRow | undefined> {
  const { operations } = s.t;
  const stored = yield* one(
    s,
    s.db
      .select()
      .from(operations)
      .where(and(eq(operations.notebookId, notebookId), eq(operations.status, "running")))
      .limit(1),
  );
  return stored ? rowOf(stored) : undefined;
}

/** A finished operation's result was seen: it is no longer listed. Answers the operation as it is now. */
export function* dismiss(s: Session, id: number, now: number): Step<OperationRow | undefined> {
  const { operations } = s.t;
  yield* run(
    s,
    s.db
      .update(operations)
      .set({ dismissedAt: new Date(now) })
      .where(and(eq(operations.id, id), ne(operations.status, "running"), isNull(operations.dismissedAt))),
  );
  return yield* find(s, id);
}

/**
 * Records progress and renews the lease until `leaseUntil` (call it inside the batch's own unit,
 * so it costs nothing more). Answers false when the operation is no longer running (it was failed
 * by someone who saw its lease run out): the worker must stop.
 */
export function* recordProgress(s: Session, id: number, progress: Progress, leaseUntil: number, now: number): Step<boolean> {
  const { operations } = s.t;
  const changed = yield* run(
    s,
    s.db
      .update(operations)
      .set({
        phase: progress.phase,
        done: progress.done,
        total: sql`COALESCE(${progress.total ?? null}, ${operations.total})`,
        leaseUntil,
        updatedAt: new Date(now),
      })
      .where(and(eq(operations.id, id), eq(operations.status, "running"))),
  );
  return changed === 1;
}

/** Marks the operation done with its report (inside the publishing unit); false when it was not running. */
export function* finish(s: Session, id: number, result: unknown, now: number): Step<boolean> {
  const { operations } = s.t;
  const at = new Date(now);
  const changed = yield* run(
    s,
    s.db
      .update(operations)
      .set({ status: "done", phase: "publishing", result: JSON.stringify(result), finishedAt: at, updatedAt: at })
      .where(and(eq(operations.id, id), eq(operations.status, "running"))),
  );
  return changed === 1;
}

/**
 * Marks the operation failed with the reason the user reads (its unpublished rows are removed by
 * removeUnpublishedBatch). With `leaseRanOutBefore` (wall-clock), only if its lease still ran out
 * before then: one whose worker renewed it since it was found abandoned (slow, not dead) goes on.
 * Answers whether it failed it.
 */
export function* fail(s: Session, id: number, error: string, now: number, leaseRanOutBefore?: number): Step<boolean> {
  const { operations } = s.t;
  const at = new Date(now);
  const leaseRanOut = leaseRanOutBefore === undefined ? undefined : lt(operations.leaseUntil, leaseRanOutBefore);
  const changed = yield* run(
    s,
    s.db
      .update(operations)
      .set({ status: "failed", error: error.slice(0, 2000), finishedAt: at, updatedAt: at })
      .where(and(eq(operations.id, id), eq(operations.status, "running"), leaseRanOut)),
  );
  return changed === 1;
}

/** Running operations whose worker stopped renewing before `wallNow` (the process died): to fail and clean up. */
export function* abandoned(s: Session, wallNow: number): Step<OperationRow[]> {
  const { operations } = s.t;
  const rows = yield* all(
    s,
    s.db
      .select()
      .from(operations)
      .where(and(eq(operations.status, "running"), lt(operations.leaseUntil, wallNow))),
  );
  return rows.map(rowOf);
}

/** Lists rows the operation wrote but has not published (inside the batch that wrote them). */
export function* recordPending(s: Session, operationId: number, kind: PendingKind, rowIds: number[]): Step<void> {
  if (rowIds.length === 0) return;
  const { operationRows } = s.t;
  yield* run(s, s.db.insert(operationRows).values(rowIds.map((rowId) => ({ operationId, kind, rowId }))));
}

/** The ids of the operation's unpublished rows of a kind, newest first, at most `limit`. */
export function* pendingIds(s: Session, operationId: number, kind: PendingKind, limit?: number): Step<number[]> {
  const { operationRows: r } = s.t;
  const query = s.db
    .select({ rowId: r.rowId })
    .from(r)
    .where(and(eq(r.operationId, operationId), eq(r.kind, kind)))
    .orderBy(desc(r.rowId));
  const rows = yield* all(s, limit === undefined ? query : query.limit(limit));
  return rows.map((row) => row.rowId);
}

/** Forgets the operation's list of unpublished rows (once published, or once removed). */
export function* forgetPending(s: Session, operationId: number): Step<void> {
  const { operationRows } = s.t;
  yield* run(s, s.db.delete(operationRows).where(eq(operationRows.operationId, operationId)));
}

/** The kinds removed after a failure, in this order: trackers before their notes, notes before their images and notebooks. */
export const REMOVED_KINDS = ["tracker", "note", "image", "attachment", "notebook"] as const;

/** Rows removed per unit when an operation's unpublished rows are removed. */
export const REMOVE_BATCH = 500;

/**
 * Removes one batch of what a failed operation wrote, of one kind (newest first: children and
 * links before what they point at), through the owning stores' bodies; the first batch of any
 * kind also makes its new notebooks let go of their head notes. Answers how many were removed
 * (0: none of the kind is left).
 */
export function* removeUnpublishedBatch(s: Session, operationId: number, kind: (typeof REMOVED_KINDS)[number]): Step<number> {
  const { operationRows: r } = s.t;
  yield* releaseHeadNotes(s, yield* pendingIds(s, operationId, "notebook"));
  const ids = yield* pendingIds(s, operationId, kind, REMOVE_BATCH);
  if (ids.length === 0) return 0;
  const remove = {
    tracker: removeTrackers,
    note: removeNotes,
    image: removeImages,
    attachment: removeAttachments,
    notebook: removeNotebooks,
  }[kind];
  yield* remove(s, ids);
  yield* run(s, s.db.delete(r).where(and(eq(r.operationId, operationId), eq(r.kind, kind), inArray(r.rowId, ids))));
  return ids.length;
}

/**
 * Inside the publishing unit: the files the operation staged for the notebook take their place
 * (the staging prefix of `prefixLength` characters dropped), replacing a file of the same path.
 */
export function* publishAttachments(s: Session, operationId: number, notebookId: number, prefixLength: number): Step<void> {
  yield* publishStagedAttachments(s, notebookId, yield* pendingIds(s, operationId, "attachment"), prefixLength);
}

/**
 * Inside the publishing unit: the operation's hidden notes show (those under a note deleted
 * meanwhile go with that deletion instead).
 */
export function* publishNotes(s: Session, operationId: number): Step<void> {
  yield* showHiddenNotes(s, yield* pendingIds(s, operationId, "note"));
}

/**
 * Inside the publishing unit: the images the operation stored that no note was given (a note
 * keeps one image) are not kept.
 */
export function* dropUnusedImages(s: Session, operationId: number, used: ReadonlySet<number>): Step<void> {
  yield* removeImages(
    s,
    (yield* pendingIds(s, operationId, "image")).filter((id) => !used.has(id)),
  );
}

/**
 * Inside the publishing unit: the operation's trackers to activate go into recall, and the review
 * history of all its trackers into the statistics' aggregates.
 */
export function* publishTrackers(s: Session, operationId: number): Step<void> {
  yield* publishImportedTrackers(s, yield* pendingIds(s, operationId, "activate"), yield* pendingIds(s, operationId, "tracker"));
}

/** The test reset: every table emptied, a new generation of the binary index's log (testability only). */
function* emptyEveryTable(s: Session, generation: number): Step<void> {
  yield* byDialect(s, {
    sqlite: () => emptyEveryTableOnSqlite(s, generation),
    postgres: () => emptyEveryTableOnPostgres(s, generation),
  });
}

export const operationsStore = defineStore({
  emptyEveryTable: write(emptyEveryTable),
  start: write(start),
  find: read(find),
  visible: read(visible),
  runningIntoNotebook: read(runningIntoNotebook),
  dismiss: write(dismiss),
  recordProgress: write(recordProgress),
  finish: write(finish),
  fail: write(fail),
  abandoned: read(abandoned),
  recordPending: write(recordPending),
  forgetPending: write(forgetPending),
  removeUnpublishedBatch: write(removeUnpublishedBatch),
});
export type OperationsStore = StoreOf<typeof operationsStore>;
