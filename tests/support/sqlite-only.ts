/**
 * Tests that only make sense on SQLite (they read the file through ctx.db or ctx.sqlite, or test
 * what exists only there: the SQLite backups, the file import): on PostgreSQL
 * (`npm run test:postgres`) they are skipped, visibly, with the reason in their name; on SQLite
 * they run as written.
 *
 *   sqliteOnly("reads the recall log through ctx.db").describe("…", () => { … });
 *   sqliteOnly("VACUUM INTO a SQLite file").test("…", async () => { … });
 */
import { describe, test } from "bun:test";
import { postgresTestUrl } from "./database-under-test";

export const SQLITE_ONLY_HINT = 'mark it sqliteOnly("why") (tests/support/sqlite-only.ts) or read through ctx.stores';

// A test body, synchronous or not (bun:test takes either).
type Body = () => unknown;

/** `onPostgres`: whether this run is on PostgreSQL (by default, whether ENGRAM_TEST_DATABASE_URL is set). */
export function sqliteOnly(
  reason: string,
  onPostgres = postgresTestUrl() !== undefined,
): {
  describe: (name: string, body: () => void) => void;
  test: (name: string, body: Body, timeout?: number) => void;
} {
  const named = (name: string) => (onPostgres ? `${name} [SQLite only: ${reason}]` : name);
  const describeHere = onPostgres ? describe.skip : describe;
  const testHere = onPostgres ? test.skip : test;
  return {
    describe: (name, body) => describeHere(named(name), body),
    test: (name, body, timeout) => testHere(named(name), body as () => Promise<unknown>, timeout),
  };
}
