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

  constructor(
    readonly connection: SqliteConnection,
    db: StoreDb,
  ) {
    this.session = { db, t: schema, dialect: "sqlite", memos: new Map() };
    this.unit = connection.transaction((body: (s: Session) => Step<unknown>) => runSync(body(this.session)));
  }

  /** The database file, for a worker process that opens its own connection to it beside this one. */
  get file(): string {
    return this.connection.filename;
  }

  get place(): DatabasePlace {
    return { sqliteFile: this.file };
  }

  read<T>(body: (s: Session) => Step<T>): Promise<T> {
    try {
      return Promise.resolve(this.readNow(body));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  write<T>(body: (s: Session) => Step<T>): Promise<T> {
    try {
      return Promise.resolve(this.writeNow(body));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * The same units, answered synchronously: a bridge for callers that are not async yet
   * (docs/architecture.md, "Adding or moving a store"); inside an open transaction the unit is
   * a savepoint of it. SQLite only: PostgreSQL has no synchronous path.
   */
  readNow<T>(body: (s: Session) => Step<T>): T {
    return this.unit(body) as T;
  }

  writeNow<T>(body: (s: Session) => Step<T>): T {
    return this.unit.immediate(body) as T;
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
