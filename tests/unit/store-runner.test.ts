import { Database as SqliteConnection } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { openDatabase } from "../../src/db/connection";
import { SqliteDatabase } from "../../src/store/database";
import { defineStore, read, write } from "../../src/store/define";
import { runAsync, runSync } from "../../src/store/runner";
import { all, one, run, type Session, type Step } from "../../src/store/session";

describe("the store runner", () => {
  test("on SQLite a body runs synchronously; a body that yields a promise is refused", () => {
    function* synchronous(): Step<number> {
      yield* []; // a body whose every query answered at once on SQLite
      return 42;
    }
    function* awaits(): Step<number> {
      const value = (yield Promise.resolve(1)) as number;
      return value;
    }
    expect(runSync(synchronous())).toBe(42);
    expect(() => runSync(awaits())).toThrow("A store body yielded a promise on SQLite");
  });

  test("asynchronously, each yielded promise's value goes back to the body, and a failure is thrown into it", async () => {
    function* body(): Step<string> {
      const a = (yield Promise.resolve(20)) as number;
      try {
        yield Promise.reject(new Error("unique violation"));
      } catch (error) {
        return `${a + 1} after ${(error as Error).message}`;
      }
      return "not reached";
    }
    expect(await runAsync(body())).toBe("21 after unique violation");
  });
});

describe("a store on SQLite", () => {
  const dir = mkdtempSync(join(tmpdir(), "engram-store-"));
  const { sqlite, db } = openDatabase(join(dir, "engram.db"));
  const database = new SqliteDatabase(sqlite, db);

  function* addSetting(s: Session, key: string, value: string, fail: boolean): Step<number> {
    const changed = yield* run(s, s.db.insert(s.t.globalSettings).values({ keyName: key, value, updatedAt: new Date(0) }));
    if (fail) throw new Error("the unit fails after its write");
    return changed;
  }
  function* setting(s: Session, key: string): Step<string | undefined> {
    const row = yield* one(s, s.db.select().from(s.t.globalSettings).where(eq(s.t.globalSettings.keyName, key)));
    return row?.value;
  }
  function* count(s: Session): Step<number> {
    return (yield* all(s, s.db.select().from(s.t.globalSettings))).length;
  }
  const settings = defineStore({ add: write(addSetting), get: read(setting), count: read(count) })(database);

  test("each method is one transaction: a body that throws leaves nothing written", async () => {
    expect(await settings.add("a", "1", false)).toBe(1);
    await expect(settings.add("b", "2", true)).rejects.toThrow("the unit fails after its write");
    expect(await settings.get("a")).toBe("1");
    expect(await settings.get("b")).toBeUndefined();
    expect(await settings.count()).toBe(1);
  });

  test("a store method called inside another transaction is a savepoint of it", () => {
    expect(() =>
      sqlite.transaction(() => {
        void settings.add("c", "3", false);
        throw new Error("the outer transaction fails");
      })(),
    ).toThrow("the outer transaction fails");
    expect(sqlite.query("SELECT count(*) AS n FROM global_settings WHERE key_name = 'c'").get()).toEqual({ n: 0 });
    sqlite.close();
    rmSync(dir, { recursive: true, force: true });
  });
});

describe("a unit while another process holds SQLite's write lock", () => {
  const dir = mkdtempSync(join(tmpdir(), "engram-busy-"));
  const file = join(dir, "engram.db");
  const { sqlite, db } = openDatabase(file);
  const database = new SqliteDatabase(sqlite, db);
  /** Another connection to the file, as an import's worker process has. */
  const other = new SqliteConnection(file);
  const settingsCount = () => database.read((s) => all(s, s.db.select().from(s.t.globalSettings)));
  function* addSetting(s: Session, keyName: string): Step<number> {
    return yield* run(s, s.db.insert(s.t.globalSettings).values({ keyName, value: "1", updatedAt: new Date(0) }));
  }

  afterAll(() => {
    other.close();
    sqlite.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("waits between tries, leaving the event loop to other requests, and runs once the lock is let go", async () => {
    other.run("BEGIN IMMEDIATE");
    let loopTurns = 0;
    const ticking = setInterval(() => loopTurns++, 1);
    const waiting = database.write((s) => addSetting(s, "written after the lock"));
    // Reads go on meanwhile (WAL): a reader never waits for the writer.
    expect(await settingsCount()).toEqual([]);
    await Bun.sleep(100);
    other.run("COMMIT");
    expect(await waiting).toBe(1);
    clearInterval(ticking);
    // SQLite's own busy wait would have held the loop for the whole 100 ms: no turn at all.
    expect(loopTurns).toBeGreaterThan(5);
    expect(await settingsCount()).toHaveLength(1);
  });

  test("gives up with SQLITE_BUSY after the connection's busy timeout", async () => {
    const impatient = openDatabase(file);
    impatient.sqlite.run("PRAGMA busy_timeout = 50");
    const quick = new SqliteDatabase(impatient.sqlite, impatient.db);
    other.run("BEGIN IMMEDIATE");
    try {
      await expect(quick.write((s) => addSetting(s, "never"))).rejects.toMatchObject({ code: "SQLITE_BUSY" });
    } finally {
      other.run("ROLLBACK");
      impatient.sqlite.close();
    }
  });
});
