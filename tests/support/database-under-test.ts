/**
 * The database a store test runs on: a fresh SQLite temp file by default, or, when
 * ENGRAM_TEST_DATABASE_URL is set (`npm run test:postgres`), a fresh PostgreSQL database created
 * on that server for the test file and dropped after it. Either way migrated and empty, with the
 * app's stores on it; `write`/`read` run a test's own body (plain inserts of the rows a test needs,
 * reads of what triggers derived) through the same Database.
 */
import { afterAll, beforeAll } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SQL } from "bun";
import { openDatabase } from "../../src/db/connection";
import { createStores, type Stores } from "../../src/store";
import { type Database, SqliteDatabase } from "../../src/store/database";
import { openPostgres } from "../../src/store/postgres-database";
import type { Dialect, Session, Step } from "../../src/store/session";

export interface StoreDatabaseUnderTest {
  dialect: Dialect;
  database: Database;
  stores: Stores;
  /** Another Database on the same data, as a second process would have (its own connection or pool). */
  another(): Promise<Database>;
  dispose(): Promise<void>;
}

/** The PostgreSQL server's URL when the tests run there. */
export const postgresTestUrl = (): string | undefined => process.env.ENGRAM_TEST_DATABASE_URL?.trim() || undefined;

/** A URL naming another database on the same server. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** Creates an empty database on the test server; answers its URL and how to drop it. */
export async function freshPostgresDatabase(url: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `engram_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new SQL(url, { max: 1 });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  await admin.close();
  return {
    url: withDatabase(url, name),
    async drop() {
      const again = new SQL(url, { max: 1 });
      await again.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await again.close();
    },
  };
}

/** Where a test's databases live: how to open one more connection to it, and how to remove it. */
interface Place {
  dialect: Dialect;
  open(): Promise<Database>;
  remove(): Promise<void>;
}

async function postgresPlace(url: string): Promise<Place> {
  const fresh = await freshPostgresDatabase(url);
  return { dialect: "postgres", open: () => openPostgres(fresh.url, 10), remove: () => fresh.drop() };
}

function sqlitePlace(): Place {
  const dir = mkdtempSync(join(tmpdir(), "engram-store-test-"));
  const file = join(dir, "engram.db");
  return {
    dialect: "sqlite",
    async open() {
      const { sqlite, db } = openDatabase(file);
      return new SqliteDatabase(sqlite, db);
    },
    async remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function databaseUnderTest(): Promise<StoreDatabaseUnderTest> {
  const url = postgresTestUrl();
  const place = url ? await postgresPlace(url) : sqlitePlace();
  const database = await place.open();
  const others: Database[] = [];
  return {
    dialect: place.dialect,
    database,
    stores: createStores(database),
    async another() {
      const other = await place.open();
      others.push(other);
      return other;
    },
    async dispose() {
      for (const other of others) await other.close();
      await database.close();
      await place.remove();
    },
  };
}

/** One database under test for the whole test file: made before its tests, removed after them. */
export function databaseUnderTestOfFile(): StoreDatabaseUnderTest {
  const under = {} as StoreDatabaseUnderTest;
  beforeAll(async () => {
    Object.assign(under, await databaseUnderTest());
  });
  afterAll(() => under.dispose());
  return under;
}

/** A test's own write or read body, as a store method would run it. */
export type TestBody<T> = (s: Session) => Step<T>;
