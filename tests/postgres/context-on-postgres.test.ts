/**
 * The app's context on PostgreSQL (ENGRAM_DATABASE_URL): createContext opens the URL's database,
 * creates no engram.db, and SQLite's synchronous bridge (readNow/writeNow) fails loudly, naming
 * its caller. Against the test server of `npm run test:postgres`.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readConfig } from "../../src/config";
import { type AppContext, createContext } from "../../src/context";
import { SynchronousUnitError } from "../../src/store/postgres-database";
import { all } from "../../src/store/session";
import { freshPostgresDatabase, postgresTestUrl } from "../support/database-under-test";

const url = postgresTestUrl();

describe.skipIf(!url)("the app's context on PostgreSQL", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "engram-pg-context-"));
  const cleanUps: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanUp of cleanUps.reverse()) await cleanUp();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function contextOnFreshDatabase(): Promise<AppContext> {
    const fresh = await freshPostgresDatabase(url!);
    cleanUps.push(() => fresh.drop());
    const ctx = await createContext(readConfig({ ENGRAM_MODE: "test", ENGRAM_DATA_DIR: dataDir, ENGRAM_DATABASE_URL: fresh.url }));
    cleanUps.push(() => ctx.database.close());
    return ctx;
  }

  test("ENGRAM_DATABASE_URL opens that database, migrated, and no engram.db is created", async () => {
    const ctx = await contextOnFreshDatabase();
    expect(ctx.database.dialect).toBe("postgres");
    expect(await ctx.stores.accounts.listWithNames()).toEqual([]);
    expect(existsSync(join(dataDir, "engram.db"))).toBe(false);
    expect(readdirSync(dataDir)).toEqual([]);
  });

  test("readNow and writeNow throw, naming the caller that still needs a synchronous unit", async () => {
    const ctx = await contextOnFreshDatabase();
    function policyStillSynchronous() {
      const answer = ctx.database.readNow((s) => all(s, s.db.select().from(s.t.accounts)));
      return answer;
    }
    expect(policyStillSynchronous).toThrow(SynchronousUnitError);
    // The caller is named from the stack (JavaScriptCore may leave a frame out: the nearest one is named).
    expect(policyStillSynchronous).toThrow(/^The caller \(.+\) needs a synchronous read \(readNow\), which only SQLite gives/);
    expect(() => ctx.database.writeNow((s) => all(s, s.db.select().from(s.t.accounts)))).toThrow(
      /^The caller \(.+\) needs a synchronous write \(writeNow\), which only SQLite gives/,
    );
  });
});
