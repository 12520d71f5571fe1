/**
 * Only the stores touch the database (docs/architecture.md, "Data layer"): no file outside
 * src/store imports drizzle or bun:sqlite, takes the app's drizzle or SQLite handle, or holds SQL
 * text. Exempt: src/db (the schema, the connection, the migration runner) and the Anki file reader
 * (read-anki.ts, anki-collection.ts: it reads an uploaded SQLite file, not Engram's database).
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { is } from "drizzle-orm";
import { SQLiteTable } from "drizzle-orm/sqlite-core";
import * as schema from "../../src/db/schema";
import { databaseAccessIn, root, sourceFiles, tablesWrittenIn } from "../support/store-boundary";

const SCANNED = ["src", "views", "islands"];
const EXEMPT = [/^src\/store\//, /^src\/db\//, /^src\/services\/vaults\/(read-anki|anki-collection)\.ts$/];

describe("the store boundary", () => {
  const checked = SCANNED.flatMap(sourceFiles).filter((file) => !EXEMPT.some((pattern) => pattern.test(file)));

  test("no file outside src/store touches the database", () => {
    const offenders = checked
      .map((file) => ({ file, does: databaseAccessIn(readFileSync(join(root, file), "utf8")) }))
      .filter((entry) => entry.does.length > 0);
    expect(offenders).toEqual([]);
  });

  test("the check sees each way of touching the database", () => {
    expect(databaseAccessIn('import { eq } from "drizzle-orm";')).toEqual(["imports drizzle-orm"]);
    expect(databaseAccessIn('import type { Database } from "bun:sqlite";')).toEqual(["imports bun:sqlite"]);
    expect(databaseAccessIn('import { notes } from "../db/schema";')).toEqual(["uses the drizzle tables (db/schema)"]);
    expect(databaseAccessIn('import type { notes } from "../db/schema";')).toEqual([]);
    expect(databaseAccessIn("const rows = ctx.db.select();")).toEqual(["uses ctx.db or ctx.sqlite"]);
    expect(databaseAccessIn("run(`UPDATE notes SET title = ?`);")).toEqual(["holds SQL text"]);
    expect(databaseAccessIn('const text = "Select a note from the list";')).toEqual([]);
    expect(databaseAccessIn("// SELECT id FROM notes, in a comment\nconst x = 1;")).toEqual([]);
  });
});

describe("one store writes each table", () => {
  const tableNames = new Set(Object.entries(schema).flatMap(([name, value]) => (is(value, SQLiteTable) ? [name] : [])));
  /** The store (its folder under src/store) of each file that writes tables, and what it writes. */
  const writers = sourceFiles("src/store").flatMap((file) => {
    const store = /^src\/store\/([^/]+)\//.exec(file)?.[1];
    if (!store) return [];
    return tablesWrittenIn(readFileSync(join(root, file), "utf8"), tableNames).map((table) => ({ table, store }));
  });

  test("no table is written by two stores", () => {
    const storesOf = new Map<string, Set<string>>();
    for (const { table, store } of writers) storesOf.set(table, (storesOf.get(table) ?? new Set()).add(store));
    const shared = [...storesOf]
      .filter(([, stores]) => stores.size > 1)
      .map(([table, stores]) => `${table}: ${[...stores].sort().join(", ")}`);
    expect(shared).toEqual([]);
  });

  test("the check sees a body's writes through its aliases of the tables", () => {
    const names = new Set(["notes", "jobs", "requestResults", "leases"]);
    const body = `
      const { notes, jobs: j } = s.t;
      const r = s.t.requestResults;
      s.db.update(notes).set({});
      s.db.delete(j);
      s.db.insert(r).values({});
      sql\`DELETE FROM \${s.t.leases} WHERE 1\`;
      s.db.select().from(s.t.notes);`;
    expect(tablesWrittenIn(body, names)).toEqual(["jobs", "leases", "notes", "requestResults"]);
  });
});
