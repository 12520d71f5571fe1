/**
 * The PostgreSQL schema (src/db/postgres/schema) is the SQLite one's twin: the same tables under
 * the same exported names, the same properties with the same columns, nullability and compatible
 * types, the same indexes, primary keys and foreign keys. One store body runs on both only if so.
 * Runs without PostgreSQL.
 */
import { describe, expect, test } from "bun:test";
import { getTableColumns, getTableName, is, type Table } from "drizzle-orm";
import { PgTable, getTableConfig as pgConfig } from "drizzle-orm/pg-core";
import { SQLiteTable, getTableConfig as sqliteConfig } from "drizzle-orm/sqlite-core";
import * as pg from "../../src/db/postgres/schema";
import * as sqlite from "../../src/db/schema";

/** Which PostgreSQL column types answer the JS values a SQLite column type answers. */
const COMPATIBLE: Record<string, string[]> = {
  SQLiteInteger: ["PgInteger", "PgBigInt53"],
  SQLiteTimestamp: ["PgTimestamp"],
  SQLiteBoolean: ["PgBoolean"],
  SQLiteText: ["PgText"],
  SQLiteReal: ["PgDoublePrecision"],
  SQLiteBlobBuffer: ["PgCustomColumn:bytea"],
};

const tablesOf = (module: Record<string, unknown>, kind: typeof SQLiteTable | typeof PgTable) =>
  Object.fromEntries(Object.entries(module).filter(([, value]) => is(value, kind as never))) as Record<string, Table>;

const sqliteTables = tablesOf(sqlite, SQLiteTable);
const pgTables = tablesOf(pg, PgTable);

function columnKind(column: { columnType: string; getSQLType(): string }) {
  return column.columnType === "PgCustomColumn" ? `PgCustomColumn:${column.getSQLType()}` : column.columnType;
}

/** What a table's indexes, keys and references say, in names and SQL column names. */
function shape(config: ReturnType<typeof sqliteConfig> | ReturnType<typeof pgConfig>) {
  return {
    indexes: config.indexes
      .map((i) => ({
        name: i.config.name ?? "",
        unique: Boolean(i.config.unique),
        columns: i.config.columns.map((c) => (c as { name: string }).name),
        partial: Boolean(i.config.where),
      }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    primaryKeys: config.primaryKeys.map((p) => p.columns.map((c) => c.name)),
    foreignKeys: config.foreignKeys
      .map((f) => {
        const reference = f.reference();
        return {
          columns: reference.columns.map((c) => c.name),
          table: getTableName(reference.foreignTable),
          foreignColumns: reference.foreignColumns.map((c) => c.name),
          onDelete: f.onDelete ?? "no action",
        };
      })
      .sort((a, b) => a.columns.join().localeCompare(b.columns.join())),
    uniqueColumns: config.columns
      .filter((c) => c.isUnique)
      .map((c) => c.name)
      .sort(),
    primaryColumns: config.columns
      .filter((c) => c.primary)
      .map((c) => c.name)
      .sort(),
  };
}

describe("the PostgreSQL schema", () => {
  test("has a twin of every SQLite table under the same name, and no table of its own", () => {
    expect(Object.keys(pgTables).sort()).toEqual(Object.keys(sqliteTables).sort());
    for (const [name, table] of Object.entries(sqliteTables)) expect(getTableName(pgTables[name] as Table)).toBe(getTableName(table));
  });

  for (const [name, sqliteTable] of Object.entries(sqliteTables)) {
    test(`${name}: the same properties, columns, nullability and compatible types`, () => {
      const pgTable = pgTables[name];
      expect(pgTable).toBeDefined();
      const s = sqliteConfig(sqliteTable as SQLiteTable);
      const p = pgConfig(pgTable as PgTable);
      // The columns as the tables expose them (PostgreSQL tables also carry an enableRLS method).
      const properties = (table: Table) => Object.keys(getTableColumns(table)).sort();
      expect(properties(pgTable as Table)).toEqual(properties(sqliteTable));
      const pgByName = new Map(p.columns.map((c) => [c.name, c]));
      expect([...pgByName.keys()].sort()).toEqual(s.columns.map((c) => c.name).sort());
      for (const column of s.columns) {
        const twin = pgByName.get(column.name);
        if (!twin) throw new Error(`${name}.${column.name} has no PostgreSQL twin`);
        const where = `${name}.${column.name}`;
        expect({ where, notNull: twin.notNull }).toEqual({ where, notNull: column.notNull });
        // A SQLite integer primary key is the rowid (a default SQLite gives); its twin is given its value, as the app does.
        const rowid =
          column.primary && column.columnType === "SQLiteInteger" && !(column as unknown as { autoIncrement: boolean }).autoIncrement;
        if (!rowid) expect({ where, hasDefault: twin.hasDefault }).toEqual({ where, hasDefault: column.hasDefault });
        expect({ where, enum: twin.enumValues ?? [] }).toEqual({ where, enum: column.enumValues ?? [] });
        expect({ where, kind: COMPATIBLE[column.columnType]?.includes(columnKind(twin)) ? "compatible" : columnKind(twin) }).toEqual({
          where,
          kind: "compatible",
        });
      }
    });

    test(`${name}: the same indexes, primary keys and foreign keys`, () => {
      const pgTable = pgTables[name];
      expect(pgTable).toBeDefined();
      expect(shape(pgConfig(pgTable as PgTable))).toEqual(shape(sqliteConfig(sqliteTable as SQLiteTable)));
    });
  }

  test("autoincrement ids are identity columns", () => {
    for (const [name, table] of Object.entries(sqliteTables)) {
      const twin = pgConfig(pgTables[name] as PgTable);
      for (const column of sqliteConfig(table as SQLiteTable).columns) {
        const autoIncrement = (column as unknown as { autoIncrement?: boolean }).autoIncrement === true;
        const identity = Boolean(
          (twin.columns.find((c) => c.name === column.name) as unknown as { generatedIdentity?: unknown }).generatedIdentity,
        );
        expect({ column: `${name}.${column.name}`, identity }).toEqual({ column: `${name}.${column.name}`, identity: autoIncrement });
      }
    }
  });
});
