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

type Body = () => Promise<unknown> | undefined;

export function sqliteOnly(reason: string): {
  describe: (name: string, body: () => void) => void;
  test: (name: string, body: Body) => void;
} {
  const onPostgres = postgresTestUrl() !== undefined;
  const named = (name: string) => (onPostgres ? `${name} [SQLite only: ${reason}]` : name);
  const describeHere = onPostgres ? describe.skip : describe;
  const testHere = onPostgres ? test.skip : test;
  return { describe: (name, body) => describeHere(named(name), body), test: (name, body) => testHere(named(name), body) };
}
