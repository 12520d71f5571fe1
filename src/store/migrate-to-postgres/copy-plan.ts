/**
 * The order in which `engram migrate-to-postgres` copies the tables, read from the two schemas
 * (src/db/schema and its twin src/db/postgres/schema, export for export): a table after every
 * table its foreign keys name. Where the keys form a cycle (a notebook's head note, a note's
 * parent or link target) the column that closes it is copied as NULL with its table and set
 * afterwards, once every row it may name exists.
 */
import { getTableColumns, is } from "drizzle-orm";
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import * as pgSchema from "../../db/postgres/schema";
import * as sqliteSchema from "../../db/schema";

export interface CopiedColumn {
  /** The property both schemas name it by. */
  key: string;
  /** The column's name in both databases. */
  name: string;
  /** Reads SQLite's stored value as the value drizzle's PostgreSQL column takes. */
  source: SQLiteColumn;
}

export interface CopiedTable {
  name: string;
  pg: PgTable;
  columns: CopiedColumn[];
  /** The single-column primary key, by which deferred columns are set; null when the key is composite or missing. */
  primaryKey: string | null;
  /** Columns copied as NULL first and set after every table is copied (they close a cycle of foreign keys). */
  deferred: string[];
}

const pgTables = (): [string, PgTable][] =>
  Object.entries(pgSchema as Record<string, unknown>).filter((entry): entry is [string, PgTable] => is(entry[1], PgTable));

/** Every table of the PostgreSQL schema with its SQLite twin, in an order that satisfies the foreign keys. */
export function copyPlan(): CopiedTable[] {
  const sqliteTables = sqliteSchema as unknown as Record<string, SQLiteTable>;
  const pending = new Map<string, { table: CopiedTable; needs: { column: string; nullable: boolean; table: string }[] }>();
  for (const [exportName, pg] of pgTables()) {
    const config = getTableConfig(pg);
    const twin = sqliteTables[exportName];
    if (!twin) throw new Error(`The SQLite schema has no table ${exportName}`);
    const sqliteColumns = getTableColumns(twin) as Record<string, SQLiteColumn>;
    const columns = Object.entries(getTableColumns(pg)).map(([key, column]) => {
      const source = sqliteColumns[key];
      if (!source || source.name !== column.name) throw new Error(`The SQLite schema has no column ${config.name}.${column.name}`);
      return { key, name: column.name, source };
    });
    const primary = config.columns.filter((column) => column.primary);
    const needs = config.foreignKeys.flatMap((fk) => {
      const reference = fk.reference();
      return reference.columns.map((column) => ({
        column: column.name,
        nullable: !column.notNull,
        table: getTableConfig(reference.foreignTable).name,
      }));
    });
    pending.set(config.name, {
      table: { name: config.name, pg, columns, primaryKey: primary.length === 1 ? primary[0]!.name : null, deferred: [] },
      needs,
    });
  }

  const ordered: CopiedTable[] = [];
  const done = new Set<string>();
  const place = (name: string) => {
    const entry = pending.get(name)!;
    // A reference to the table itself, or to one not copied yet, waits until every table is there.
    entry.table.deferred = entry.needs.filter((need) => !done.has(need.table)).map((need) => need.column);
    ordered.push(entry.table);
    done.add(name);
    pending.delete(name);
  };
  while (pending.size > 0) {
    const ready = [...pending.keys()].find((name) =>
      pending.get(name)!.needs.every((need) => (need.table === name ? need.nullable : done.has(need.table))),
    );
    if (ready) {
      place(ready);
      continue;
    }
    // A cycle: take a table of it whose missing references may all be NULL for a moment.
    const reaches = (from: string, to: string, seen = new Set<string>()): boolean => {
      if (from === to) return true;
      if (seen.has(from) || !pending.has(from)) return false;
      seen.add(from);
      return pending.get(from)!.needs.some((need) => reaches(need.table, to, seen));
    };
    const breakable = [...pending.keys()].find((name) => {
      const missing = pending.get(name)!.needs.filter((need) => !done.has(need.table));
      return missing.every((need) => need.nullable) && missing.some((need) => need.table !== name && reaches(need.table, name));
    });
    if (!breakable) throw new Error(`The foreign keys of ${[...pending.keys()].join(", ")} form a cycle of required columns`);
    place(breakable);
  }
  for (const table of ordered) {
    if (table.deferred.length > 0 && !table.primaryKey) {
      throw new Error(`${table.name} has columns to set after the copy but no single-column primary key`);
    }
  }
  return ordered;
}
