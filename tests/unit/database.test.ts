import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../src/db/connection";

describe("database", () => {
  const file = join(mkdtempSync(join(tmpdir(), "engram-db-")), "engram.db");

  test("opens with WAL, foreign keys, busy timeout, sqlite-vec and FTS5", () => {
    const { sqlite } = openDatabase(file);
    expect(sqlite.query<{ journal_mode: string }, []>("PRAGMA journal_mode").get()!.journal_mode).toBe("wal");
    expect(sqlite.query<{ foreign_keys: number }, []>("PRAGMA foreign_keys").get()!.foreign_keys).toBe(1);
    expect(sqlite.query<{ timeout: number }, []>("PRAGMA busy_timeout").get()!.timeout).toBe(5000);
    expect(sqlite.query<{ v: string }, []>("SELECT vec_version() v").get()!.v).toMatch(/^v\d/);
    sqlite.run("CREATE VIRTUAL TABLE temp.probe USING fts5(body)");
    sqlite.run("INSERT INTO temp.probe VALUES ('spaced repetition works')");
    expect(sqlite.query("SELECT * FROM temp.probe WHERE probe MATCH 'repetition'").all()).toHaveLength(1);
    sqlite.close();
  });

  test("migrations apply once: reopening changes nothing", () => {
    const first = openDatabase(file);
    const applied = first.sqlite.query("SELECT hash FROM __drizzle_migrations").all();
    first.sqlite.close();
    const second = openDatabase(file);
    expect(second.sqlite.query("SELECT hash FROM __drizzle_migrations").all()).toEqual(applied);
    expect(applied.length).toBeGreaterThan(0);
    second.sqlite.close();
  });
});
