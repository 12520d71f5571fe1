/**
 * The one object the app context holds for its database: it runs store bodies as units of work.
 * `read` runs a body in a read transaction (one consistent snapshot); `write` in a write
 * transaction that holds the write lock from its start, so a body's reads and the writes that
 * depend on them see no other writer in between, whatever the number of processes.
 *
 * SQLite (the default): synchronous, inside bun:sqlite's transaction (BEGIN for reads, BEGIN
 * IMMEDIATE for writes); the answer is a settled promise, so store interfaces are the same async
 * ones PostgreSQL needs. A PostgreSQL Database runs the same bodies with runAsync inside
 * db.transaction(async tx => ...): see docs/architecture.md.
 */
import type { Database as SqliteConnection } from "bun:sqlite";
import { isBusy, whileBusy } from "../db/busy";
import * as schema from "../db/schema";
import type { DatabasePlace } from "./database-place";
import { runSync } from "./runner";
import type { Dialect, Session, Step, StoreDb } from "./session";
import { neverWakes, type OnWake } from "./wake-ups";

export interface Database {
  readonly dialect: Dialect;
  /** Where it is: what a worker process needs to open its own connection to the same data. */
  readonly place: DatabasePlace;
  read<T>(body: (s: Session) => Step<T>): Promise<T>;
  write<T>(body: (s: Session) => Step<T>): Promise<T>;
  /**
   * Calls `wake` when another process (or this one) wrote what the topic's pollers look for, so
   * they look now: PostgreSQL's NOTIFY; never on SQLite. A hint only (wake-ups.ts): keep polling.
   */
  readonly onWake: OnWake;
  /** Closes the database (at shutdown, once no unit of work is left to run). */
  close(): Promise<void>;
}

export class SqliteDatabase implements Database {
  readonly dialect = "sqlite" as const;
  readonly session: Session;
  readonly onWake = neverWakes;
  /** One transaction wrapper for every unit (bun:sqlite builds one per call of `transaction`). */
  private readonly unit: ReturnType<SqliteConnection["transaction"]>;

  /** How long a unit waits for another process's write lock (the connection's busy timeout when opened). */
  private readonly busyWaitMs: number;

  constructor(
    readonly connection: SqliteConnection,
    db: StoreDb,
  ) {
    this.session = { db, t: schema, dialect: "sqlite", memos: new Map() };
    this.unit = connection.transaction((body: (s: Session) => Step<unknown>) => runSync(body(this.session)));
    // SQLite waits for a lock by sleeping inside the call, and so the whole event loop with every
    // request on it: the units wait between tries instead (whenNotBusy), for as long as SQLite would have.
    this.busyWaitMs = (connection.query("PRAGMA busy_timeout").get() as { timeout: number }).timeout;
    connection.run("PRAGMA busy_timeout = 0");
  }

  /** The database file, for a worker process that opens its own connection to it beside this one. */
  get file(): string {
    return this.connection.filename;
  }

  get place(): DatabasePlace {
    return { sqliteFile: this.file };
  }

  read<T>(body: (s: Session) => Step<T>): Promise<T> {
    return this.whenNotBusy(() => this.unit(body) as T);
  }

  write<T>(body: (s: Session) => Step<T>): Promise<T> {
    return this.whenNotBusy(() => this.unit.immediate(body) as T);
  }

  /**
   * Runs a unit; while another process holds the write lock (an import's worker publishing, a
   * backup), SQLite answers SQLITE_BUSY at once and the unit is tried again after a pause that
   * the event loop spends on other requests, up to the busy wait. A busy unit has not begun: its
   * BEGIN is what failed.
   */
  private async whenNotBusy<T>(unit: () => T): Promise<T> {
    const giveUpAt = Date.now() + this.busyWaitMs;
    for (let pauseMs = 1; ; pauseMs = Math.min(pauseMs * 2, 25)) {
      try {
        return unit();
      } catch (error) {
        if (!isBusy(error) || Date.now() >= giveUpAt) throw error;
      }
      await Bun.sleep(pauseMs);
    }
  }

  /**
   * The same units, answered synchronously: a bridge for callers that are not async yet
   * (docs/architecture.md, "Adding or moving a store"); inside an open transaction the unit is
   * a savepoint of it. SQLite only: PostgreSQL has no synchronous path.
   */
  readNow<T>(body: (s: Session) => Step<T>): T {
    return this.whenNotBusyNow(() => this.unit(body) as T);
  }

  writeNow<T>(body: (s: Session) => Step<T>): T {
    return this.whenNotBusyNow(() => this.unit.immediate(body) as T);
  }

  /** whenNotBusy for the synchronous units: these block while they wait, as SQLite's own wait did. */
  private whenNotBusyNow<T>(unit: () => T): T {
    return whileBusy(unit, this.busyWaitMs);
  }

  /** Checkpoints the WAL into the database file (leaving an empty -wal), then closes it. */
  async close(): Promise<void> {
    try {
      this.connection.run("PRAGMA wal_checkpoint(TRUNCATE)");
    } catch (error) {
      // Busy (another connection reading): SQLite checkpoints on close anyway.
      console.error("The WAL checkpoint at shutdown did not complete:", error);
    }
    this.connection.close();
  }
}
