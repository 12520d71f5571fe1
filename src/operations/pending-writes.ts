/**
 * What a worker needs to write an import beside the request loop: its own Database (with its
 * stores: every write is a store body), batches in short write
 * transactions with a pause between them, progress with every batch, and the rows written but
 * not published yet listed in operation_rows: new notes stay hidden (deleted) until the one
 * short publishing transaction shows them all, and a failure removes exactly them.
 */
import { attachmentPathKey, stagedPathKey } from "../services/vaults/attachment-keys";
import { asBuffer } from "../services/vaults/read-zip";
import { attachmentBytes, stageAttachment, storeImage } from "../store/notes/notes-import";
import {
  OPERATION_LEASE_MS,
  type OperationPhase,
  type OperationsStore,
  publishAttachments,
  recordPending,
  recordProgress,
} from "../store/operations/operations-store";
import type { Session, Step } from "../store/session";
import { openWorkerDatabase, pause, WORKER_TRANSACTION_MS, type WorkerDatabase } from "../workers/database";
import { removeUnpublished } from "./remove-unpublished";

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.byteLength === b.byteLength && Buffer.compare(asBuffer(a), asBuffer(b)) === 0;

/** The operation was failed by someone else (its lease ran out): the worker stops writing. */
export class OperationLost extends Error {
  constructor() {
    super("the import was stopped (it stopped answering for too long)");
    this.name = "OperationLost";
  }
}

export class PendingWrites {
  /** The worker's own Database on its connection: store bodies run on it (inside an open transaction, as savepoints). */
  readonly database: WorkerDatabase;
  readonly operations: OperationsStore;
  private phase: OperationPhase = "reading";
  private done = 0;
  private total: number | null = null;
  private lastProgressAt = 0;
  private readonly startedAt = performance.now();
  /** When the open transaction of stored files began (undefined: none is open). */
  private openSince: number | undefined;
  private commitTimer: ReturnType<typeof setTimeout> | undefined;
  /** The pause after the last commit of stored files: the next one waits for it. */
  private resting: Promise<void> | undefined;
  /** Why the timer could not commit the open transaction (the next write throws it). */
  private commitFailure: unknown;

  constructor(
    databaseFile: string,
    readonly operationId: number,
    readonly now: Date,
  ) {
    this.database = openWorkerDatabase(databaseFile);
    this.operations = this.database.stores.operations;
  }

  /**
   * The time now on the server's clock: `now` (when the server started the operation, on its
   * clock, which tests may move) plus the time the worker has run since.
   */
  clock(): number {
    return this.now.getTime() + Math.round(performance.now() - this.startedAt);
  }

  /** Sets the progress shown; written with the next batch (or at once when `flush`). */
  progress(phase: OperationPhase, done: number, total?: number, flush = false) {
    this.phase = phase;
    this.done = done;
    if (total !== undefined) this.total = total;
    if (flush || Date.now() - this.lastProgressAt > 250) this.writeProgress();
  }

  /** The progress and a renewed lease, in a unit of their own or inside the open one. */
  private writeProgress() {
    this.database.writeNow((s) => this.progressStep(s));
  }

  private *progressStep(s: Session): Step<void> {
    this.lastProgressAt = Date.now();
    const progress = { phase: this.phase, done: this.done, total: this.total };
    // The lease is wall-clock time, never the server's (test) clock.
    const leaseUntil = Date.now() + OPERATION_LEASE_MS;
    if (!(yield* recordProgress(s, this.operationId, progress, leaseUntil, this.clock()))) throw new OperationLost();
  }

  /** Runs `body` in one short write unit with the progress (no pause after it). */
  private writeNow<T>(body: (s: Session) => Step<T>): T {
    this.commitOpen();
    const writes = this;
    return this.database.writeNow(function* (s) {
      const answer = yield* body(s);
      yield* writes.progressStep(s);
      return answer;
    });
  }

  /** Runs `body` in one short write unit with the progress, then pauses so other writers get the lock. */
  async batch<T>(body: (s: Session) => Step<T>): Promise<T> {
    await this.resting;
    const result = this.writeNow(body);
    await pause();
    return result;
  }

  /**
   * Runs a small write (one stored file) in the transaction left open for them, opened if none
   * is: files are stored as they are read, one at a time, and one transaction a file cost a
   * commit and a pause each. The transaction is committed once it has run WORKER_TRANSACTION_MS
   * (by a timer while the reader waits for the archive, so the lock is never held much longer),
   * then the worker pauses so other writers get the lock.
   */
  private async inOpenTransaction<T>(write: () => T): Promise<T> {
    await this.resting;
    this.throwCommitFailure();
    if (this.openSince === undefined) {
      this.database.begin();
      this.openSince = performance.now();
      this.commitTimer = setTimeout(() => {
        try {
          this.commitOpen();
        } catch (error) {
          this.commitFailure = error;
        }
      }, WORKER_TRANSACTION_MS);
    }
    let answer: T;
    try {
      answer = write();
    } catch (error) {
      this.rollbackOpen();
      throw error;
    }
    if (performance.now() - this.openSince >= WORKER_TRANSACTION_MS) {
      this.commitOpen();
      await this.resting;
    }
    return answer;
  }

  /** Commits the open transaction of stored files, if any, with the progress; a pause follows. */
  private commitOpen() {
    if (this.openSince === undefined) return;
    clearTimeout(this.commitTimer);
    this.openSince = undefined;
    try {
      this.writeProgress();
      this.database.commit();
    } catch (error) {
      this.database.rollback();
      throw error;
    }
    this.resting = pause().then(() => {
      this.resting = undefined;
    });
  }

  private rollbackOpen() {
    if (this.openSince === undefined) return;
    clearTimeout(this.commitTimer);
    this.openSince = undefined;
    this.database.rollback();
  }

  private throwCommitFailure() {
    if (this.commitFailure === undefined) return;
    const failure = this.commitFailure;
    this.commitFailure = undefined;
    throw failure;
  }

  /** Commits what is open (call before reading what the stored files wrote in another way). */
  async settle() {
    this.throwCommitFailure();
    this.commitOpen();
    await this.resting;
  }

  /**
   * Writes `items` in batches sized so that each transaction stays near WORKER_TRANSACTION_MS
   * (starting small, growing while batches are quick); `write` answers what it wrote per item.
   */
  async inBatches<I, R>(items: I[], write: (s: Session, batch: I[]) => Step<R[]>, onBatch?: (written: number) => void): Promise<R[]> {
    const out: R[] = [];
    let size = 20;
    await this.settle();
    for (let i = 0; i < items.length; ) {
      const slice = items.slice(i, i + size);
      const started = performance.now();
      out.push(...this.writeNow((s) => write(s, slice)));
      const ms = performance.now() - started;
      await pause();
      i += slice.length;
      onBatch?.(slice.length);
      size = Math.max(5, Math.min(2000, Math.round(size * Math.min(2, Math.max(0.5, WORKER_TRANSACTION_MS / Math.max(ms, 0.5))))));
    }
    return out;
  }

  /** Stores an image (with the next ones read, in one short transaction); answers its row (removed again if the import fails). */
  storeImage(userId: number, image: { bytes: Uint8Array; contentType: string }): Promise<number> {
    const { operationId, now } = this;
    const stored = { bytes: asBuffer(image.bytes), contentType: image.contentType };
    return this.inOpenTransaction(() =>
      this.database.writeNow(function* (s) {
        const id = yield* storeImage(s, userId, stored, now.getTime());
        yield* recordPending(s, operationId, "image", [id]);
        return id;
      }),
    );
  }

  /**
   * Stores a file the notes embed for the notebook, staged (not the notebook's yet) until
   * `publishAttachments`; a file already there with the same bytes is left alone. Answers
   * whether it was stored.
   */
  async storeAttachment(notebookId: number, attachment: { path: string; bytes: Uint8Array; contentType: string }): Promise<boolean> {
    const pathKey = attachmentPathKey(attachment.path);
    const existing = this.database.readNow((s) => attachmentBytes(s, notebookId, pathKey));
    if (existing && sameBytes(existing, attachment.bytes)) return false;
    const { operationId, now } = this;
    const staged = {
      notebookId,
      path: attachment.path,
      stagedPathKey: stagedPathKey(operationId, pathKey),
      contentType: attachment.contentType,
      bytes: asBuffer(attachment.bytes),
    };
    await this.inOpenTransaction(() =>
      this.database.writeNow(function* (s) {
        const id = yield* stageAttachment(s, staged, now.getTime());
        yield* recordPending(s, operationId, "attachment", [id]);
      }),
    );
    return true;
  }

  /**
   * Inside the publishing transaction: the staged files take their place in the notebook,
   * replacing a file of the same path (a changed file gets a new id: its address is cached as
   * never changing).
   */
  publishAttachments(notebookId: number) {
    const prefixLength = stagedPathKey(this.operationId, "").length;
    this.database.writeNow((s) => publishAttachments(s, this.operationId, notebookId, prefixLength));
  }

  /** The publishing transaction: everything it does shows at once, or nothing does. */
  publish<T>(body: (s: Session) => Step<T>): T {
    this.throwCommitFailure();
    this.commitOpen();
    return this.database.writeNow(body);
  }

  /** After a failure: removes what was written, a batch at a time. */
  async removeAll() {
    this.rollbackOpen();
    this.commitFailure = undefined;
    await removeUnpublished(this.operations, this.operationId, () => pause());
  }

  close() {
    this.rollbackOpen();
    this.database.closeNow();
  }
}
