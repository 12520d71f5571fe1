/**
 * What a worker needs to write an import beside the request loop: its own Database (with its
 * stores: every write is a store body, every unit async, so the same code runs on SQLite and
 * PostgreSQL), batches in short write units with a pause between them, progress and the lease
 * with every unit, and the rows written but not published yet listed in operation_rows: new
 * notes stay hidden (deleted) until the one short publishing unit shows them all, and a failure
 * removes exactly them. Files (images, attachments) are read one at a time and kept in memory
 * until FILE_BUFFER_BYTES of them or WORKER_TRANSACTION_MS have gathered, then written together
 * in one short unit.
 */
import { attachmentPathKey, stagedPathKey } from "../services/vaults/attachment-keys";
import { asBuffer } from "../services/vaults/read-zip";
import type { Database } from "../store/database";
import { attachmentBytes, stageAttachment, storeImage } from "../store/notes/notes-import";
import {
  OPERATION_LEASE_MS,
  type OperationPhase,
  type OperationsStore,
  recordPending,
  recordProgress,
} from "../store/operations/operations-store";
import type { Session, Step } from "../store/session";
import { type DatabasePlace, openWorkerDatabase, pause, WORKER_TRANSACTION_MS, type WorkerDatabase } from "../workers/database";
import { removeUnpublished } from "./remove-unpublished";

/** Files read but not written yet are written once they hold this many bytes (memory stays bounded by it plus one file). */
export const FILE_BUFFER_BYTES = 8 * 1024 * 1024;

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.byteLength === b.byteLength && Buffer.compare(asBuffer(a), asBuffer(b)) === 0;

/** The operation was failed by someone else (its lease ran out): the worker stops writing. */
export class OperationLost extends Error {
  constructor() {
    super("the import was stopped (it stopped answering for too long)");
    this.name = "OperationLost";
  }
}

/** A file read and waiting in memory: its write, its size, and who waits for its id. */
interface BufferedFile {
  write: (s: Session) => Step<number>;
  bytes: number;
  resolve: (id: number) => void;
  reject: (error: unknown) => void;
}

/** A stored file's id, known once its buffer is written (a promise inside an object, so awaiting the store call does not wait for it). */
export interface StoredFile {
  id: Promise<number>;
}

export class PendingWrites {
  readonly database: Database;
  readonly operations: OperationsStore;
  private phase: OperationPhase = "reading";
  private done = 0;
  private total: number | null = null;
  private lastProgressAt = 0;
  private readonly startedAt = performance.now();
  /** Every unit of this worker runs after the previous one (and its pause): one at a time, in order. */
  private queue: Promise<unknown> = Promise.resolve();
  private files: BufferedFile[] = [];
  private fileBytes = 0;
  private fileTimer: ReturnType<typeof setTimeout> | undefined;
  /** Why a unit run in the background (files, progress) failed: the next call throws it. */
  private failure: unknown;
  private stopped = false;

  constructor(
    private readonly opened: WorkerDatabase,
    readonly operationId: number,
    readonly now: Date,
  ) {
    this.database = opened.database;
    this.operations = opened.stores.operations;
  }

  /** Opens the worker's own Database where the server's is. */
  static async open(location: DatabasePlace, operationId: number, now: Date): Promise<PendingWrites> {
    return new PendingWrites(await openWorkerDatabase(location), operationId, now);
  }

  /**
   * The time now on the server's clock: `now` (when the server started the operation, on its
   * clock, which tests may move) plus the time the worker has run since.
   */
  clock(): number {
    return this.now.getTime() + Math.round(performance.now() - this.startedAt);
  }

  /** Runs `unit` after every unit asked for before it; a pause after it when `rest`. */
  private enqueue<T>(unit: () => Promise<T>, rest: boolean): Promise<T> {
    const run = this.queue.then(async () => {
      const answer = await unit();
      if (rest) await pause();
      return answer;
    });
    this.queue = run.catch(() => {});
    return run;
  }

  private throwFailure() {
    if (this.stopped) throw new OperationLost();
    if (this.failure === undefined) return;
    const failure = this.failure;
    this.failure = undefined;
    throw failure;
  }

  /** Sets the progress shown; written with the next unit (or in one of its own when `flush`, or when the last is old). */
  progress(phase: OperationPhase, done: number, total?: number, flush = false): void {
    this.phase = phase;
    this.done = done;
    if (total !== undefined) this.total = total;
    if (!flush && Date.now() - this.lastProgressAt <= 250) return;
    this.lastProgressAt = Date.now();
    this.enqueue(() => this.database.write((s) => this.progressStep(s)), false).catch((error) => {
      this.failure ??= error;
    });
  }

  private *progressStep(s: Session): Step<void> {
    this.lastProgressAt = Date.now();
    const progress = { phase: this.phase, done: this.done, total: this.total };
    // The lease is wall-clock time, never the server's (test) clock.
    const leaseUntil = Date.now() + OPERATION_LEASE_MS;
    if (!(yield* recordProgress(s, this.operationId, progress, leaseUntil, this.clock()))) throw new OperationLost();
  }

  /** `body` and the progress in one write unit. */
  private withProgress<T>(body: (s: Session) => Step<T>): Promise<T> {
    const writes = this;
    return this.database.write(function* (s) {
      const answer = yield* body(s);
      yield* writes.progressStep(s);
      return answer;
    });
  }

  /** Runs `body` in one short write unit with the progress, then pauses so other writers get the lock. */
  async batch<T>(body: (s: Session) => Step<T>): Promise<T> {
    await this.settle();
    return this.enqueue(() => this.withProgress(body), true);
  }

  /** Keeps a file's write until its buffer is written; waits first while the buffer is full. */
  private async buffered(write: (s: Session) => Step<number>, bytes: number): Promise<StoredFile> {
    this.throwFailure();
    if (this.fileBytes >= FILE_BUFFER_BYTES) await this.writeFiles();
    this.throwFailure();
    let resolve!: (id: number) => void;
    let reject!: (error: unknown) => void;
    const id = new Promise<number>((yes, no) => {
      resolve = yes;
      reject = no;
    });
    // Whoever waits for the id hears a failure; the import hears it at its next call.
    id.catch(() => {});
    this.files.push({ write, bytes, resolve, reject });
    this.fileBytes += bytes;
    this.fileTimer ??= setTimeout(() => {
      this.writeFiles().catch(() => {});
    }, WORKER_TRANSACTION_MS);
    return { id };
  }

  /** Writes the buffered files in one unit with their operation_rows and the progress, then pauses. */
  private writeFiles(): Promise<void> {
    clearTimeout(this.fileTimer);
    this.fileTimer = undefined;
    const files = this.files;
    this.files = [];
    this.fileBytes = 0;
    if (files.length === 0) return this.enqueue(async () => {}, false);
    const written = this.enqueue(
      () =>
        this.withProgress(function* (s) {
          const ids: number[] = [];
          for (const file of files) ids.push(yield* file.write(s));
          return ids;
        }),
      true,
    );
    return written.then(
      (ids) => {
        for (const [i, file] of files.entries()) file.resolve(ids[i]!);
      },
      (error) => {
        this.failure ??= error;
        for (const file of files) file.reject(error);
        throw error;
      },
    );
  }

  /** Writes what is buffered and waits for every unit asked for; throws what failed meanwhile. */
  async settle() {
    this.throwFailure();
    await this.writeFiles();
    await this.queue;
    this.throwFailure();
  }

  /**
   * Writes `items` in batches sized so that each unit stays near WORKER_TRANSACTION_MS
   * (starting small, growing while batches are quick); `write` answers what it wrote per item.
   */
  async inBatches<I, R>(items: I[], write: (s: Session, batch: I[]) => Step<R[]>, onBatch?: (written: number) => void): Promise<R[]> {
    const out: R[] = [];
    let size = 20;
    await this.settle();
    for (let i = 0; i < items.length; ) {
      const slice = items.slice(i, i + size);
      const started = performance.now();
      out.push(...(await this.enqueue(() => this.withProgress((s) => write(s, slice)), false)));
      const ms = performance.now() - started;
      await pause();
      i += slice.length;
      onBatch?.(slice.length);
      size = Math.max(5, Math.min(2000, Math.round(size * Math.min(2, Math.max(0.5, WORKER_TRANSACTION_MS / Math.max(ms, 0.5))))));
    }
    return out;
  }

  /** Stores an image (written with the next ones read, in one short unit); its row is removed again if the import fails. */
  storeImage(userId: number, image: { bytes: Uint8Array; contentType: string }): Promise<StoredFile> {
    const { operationId, now } = this;
    const stored = { bytes: asBuffer(image.bytes), contentType: image.contentType };
    return this.buffered(function* (s) {
      const id = yield* storeImage(s, userId, stored, now.getTime());
      yield* recordPending(s, operationId, "image", [id]);
      return id;
    }, stored.bytes.byteLength);
  }

  /**
   * Stores a file the notes embed for the notebook, staged (not the notebook's yet) until
   * `publishAttachments`; a file already there with the same bytes is left alone. Answers
   * whether it will be stored.
   */
  async storeAttachment(notebookId: number, attachment: { path: string; bytes: Uint8Array; contentType: string }): Promise<boolean> {
    const pathKey = attachmentPathKey(attachment.path);
    const existing = await this.database.read((s) => attachmentBytes(s, notebookId, pathKey));
    if (existing && sameBytes(existing, attachment.bytes)) return false;
    const { operationId, now } = this;
    const staged = {
      notebookId,
      path: attachment.path,
      stagedPathKey: stagedPathKey(operationId, pathKey),
      contentType: attachment.contentType,
      bytes: asBuffer(attachment.bytes),
    };
    await this.buffered(function* (s) {
      const id = yield* stageAttachment(s, staged, now.getTime());
      yield* recordPending(s, operationId, "attachment", [id]);
      return id;
    }, staged.bytes.byteLength);
    return true;
  }

  /** The publishing unit: everything it does shows at once, or nothing does. */
  async publish<T>(body: (s: Session) => Step<T>): Promise<T> {
    await this.settle();
    return this.enqueue(() => this.database.write(body), false);
  }

  /** After a failure: drops what is buffered, waits for the unit under way, then removes what was written, a batch at a time. */
  async removeAll() {
    this.stopped = true;
    clearTimeout(this.fileTimer);
    this.fileTimer = undefined;
    for (const file of this.files) file.reject(new OperationLost());
    this.files = [];
    this.fileBytes = 0;
    await this.queue;
    this.failure = undefined;
    await removeUnpublished(this.operations, this.operationId, () => pause());
  }

  async close() {
    this.stopped = true;
    clearTimeout(this.fileTimer);
    await this.queue;
    await this.opened.close();
  }
}
