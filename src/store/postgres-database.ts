/**
 * The Database on PostgreSQL: drizzle over Bun.sql with a pool of connections. Each unit of work
 * is one transaction (`read only` for reads, so a read body cannot write by mistake); its body
 * runs with runAsync, each query a round trip whose rows the runner hands back. A unit asked for
 * while another is open in the same async context (a store called from inside a body's caller
 * that already holds a unit) runs as a savepoint of it, as on SQLite.
 *
 * A `Session.memos` map lives for one unit only: a prepared query is bound to the transaction it
 * was built on (Bun.sql caches the server-side statements by text anyway).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { SQL } from "bun";
import { type BunSQLDatabase, drizzle } from "drizzle-orm/bun-sql";
import { connectPostgres, poolSizeFromEnv } from "../db/postgres/connection";
import { migratePostgres } from "../db/postgres/migrate";
import * as pgSchema from "../db/postgres/schema";
import type { Database } from "./database";
import type { DatabasePlace } from "./database-place";
import { databaseError, runAsync } from "./runner";
import type { Session, Step, StoreDb, Tables } from "./session";
import { type OnWake, PostgresWakeUps } from "./wake-ups";

type PgDb = BunSQLDatabase<typeof pgSchema>;
type PgTransaction = Parameters<Parameters<PgDb["transaction"]>[0]>[0];

/** The pg-core tables, handed to bodies typed as the SQLite ones (tests/unit/postgres-schema.test.ts keeps them twins). */
const tables = pgSchema as unknown as Tables;

/** How many times a unit runs before a deadlock or serialisation failure reaches its caller. */
const MAX_TRIES = 3;

const rethrowDatabaseError = (error: unknown): never => {
  throw databaseError(error);
};

export class PostgresDatabase implements Database {
  readonly dialect = "postgres" as const;
  readonly db: PgDb;
  private readonly open = new AsyncLocalStorage<PgTransaction>();
  /** The one LISTEN of this process's pool (made on first use). */
  readonly wakeUps: PostgresWakeUps;
  readonly onWake: OnWake;

  /** `url` is where the client connects: a worker process opens its own pool on it. */
  constructor(
    readonly client: SQL,
    readonly url: string,
  ) {
    this.db = drizzle({ client, schema: pgSchema });
    this.wakeUps = new PostgresWakeUps(client);
    this.onWake = this.wakeUps.on;
  }

  get place(): DatabasePlace {
    return { postgresUrl: this.url };
  }

  read<T>(body: (s: Session) => Step<T>): Promise<T> {
    return this.unit(body, "read only");
  }

  write<T>(body: (s: Session) => Step<T>): Promise<T> {
    return this.unit(body, "read write");
  }

  /**
   * SQLite's synchronous bridge has no PostgreSQL twin: a caller still on it fails loudly, naming
   * itself, instead of answering wrong (docs/architecture.md, "Adding or moving a store").
   */
  readNow<T>(_body: (s: Session) => Step<T>): T {
    throw new SynchronousUnitError("read", callerOf(new Error()));
  }

  writeNow<T>(_body: (s: Session) => Step<T>): T {
    throw new SynchronousUnitError("write", callerOf(new Error()));
  }

  private unit<T>(body: (s: Session) => Step<T>, accessMode: "read only" | "read write"): Promise<T> {
    const run = (tx: PgTransaction) =>
      this.open.run(tx, () => runAsync(body({ db: tx as unknown as StoreDb, t: tables, dialect: "postgres", memos: new Map() })));
    const outer = this.open.getStore();
    if (outer) return outer.transaction(run).catch(rethrowDatabaseError);
    return this.retried(() => this.transaction(run, accessMode));
  }

  /**
   * A unit PostgreSQL gave up on to break a deadlock (or a serialisation failure) runs again,
   * a few times: its body is a function of the session alone, so running it again is safe, and
   * the other unit has gone on meanwhile. SQLite never needs it: one writer at a time.
   */
  private async retried<T>(attempt: () => Promise<T>): Promise<T> {
    for (let tries = 1; ; tries++) {
      try {
        return await attempt();
      } catch (error) {
        const errno = (error as { errno?: unknown }).errno;
        if (tries >= MAX_TRIES || (errno !== "40P01" && errno !== "40001")) throw error;
      }
    }
  }

  private transaction<T>(run: (tx: PgTransaction) => Promise<T>, accessMode: "read only" | "read write"): Promise<T> {
    // A read sees one snapshot (repeatable read, which never fails a read-only transaction); a write
    // reads the latest committed rows and locks what it depends on (forUpdate), as SQLite's write lock does.
    return this.db
      .transaction(run, { accessMode, isolationLevel: accessMode === "read only" ? "repeatable read" : "read committed" })
      .catch(rethrowDatabaseError);
  }

  async close(): Promise<void> {
    await this.wakeUps.close();
    await this.client.close({ timeout: 5 });
  }
}

/** A synchronous unit asked of PostgreSQL, which has none. */
export class SynchronousUnitError extends Error {
  constructor(kind: "read" | "write", caller: string) {
    super(
      `${caller} needs a synchronous ${kind} (${kind}Now), which only SQLite gives: on PostgreSQL it must await its store (ctx.stores.<aggregate>.<method>) instead`,
    );
    this.name = "SynchronousUnitError";
  }
}

/** The function that called readNow/writeNow, from a stack taken inside it. */
function callerOf(error: Error): string {
  const frame = error.stack
    ?.split("\n")
    .slice(1)
    .find((line) => !line.includes("postgres-database"));
  const name = frame?.trim().replace(/^at /, "");
  return name ? `The caller (${name})` : "A caller";
}

/**
 * Opens the PostgreSQL database of `url` (ENGRAM_DATABASE_URL): checks it is a PostgreSQL URL, that
 * the server answers, accepts the credentials and is version 15 or newer — each failure one line
 * (a ConfigError) — then applies the pending migrations under the advisory lock.
 */
export async function openPostgres(url: string, poolSize = poolSizeFromEnv()): Promise<PostgresDatabase> {
  const client = await connectPostgres(url, poolSize);
  try {
    await migratePostgres(client);
  } catch (error) {
    await client.close();
    throw error;
  }
  return new PostgresDatabase(client, url);
}
